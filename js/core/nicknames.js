// The commonest English nicknames and short forms of given names, each written as its full name so
// that `Bob Johnson` and `Johnson, Robert` compare as one person (README "Records") and a
// list's review holds them (dedup/contained.js). A name with several full forms (`Alex`:
// Alexander, Alexandra) is left as it is. Plain JS.

const TABLE = 'andrew:andy,drew;anthony:tony;catherine:cathy,kate,katie,kathy;charles:charlie,chuck;christopher:chris;daniel:dan,danny;david:dave;edward:ed,eddie,ted;elizabeth:liz,beth,betty;james:jim,jimmy;jennifer:jen,jenny;joseph:joe,joey;margaret:maggie,meg,peggy;matthew:matt;michael:mike,mick;nicholas:nick;patricia:patty,trish;richard:rick,dick;robert:bob,rob,bobby,bert;samuel:sam;stephen:steve;susan:sue;thomas:tom,tommy;william:bill,will,billy,liam';

let byNickname;
let nicknames;

/** A lower-cased name with each nickname written as its full name (words split at anything but letters and digits). */
export function fullNames(text) {
  if (!byNickname) {
    byNickname = new Map();
    for (const entry of TABLE.split(';')) {
      const [full, short] = entry.split(':');
      for (const nickname of short.split(',')) byNickname.set(nickname, full);
    }
    // One pass over the text finds the nicknames among whole words, rather than a call per word.
    nicknames = new RegExp(`(?<![\\p{L}\\p{N}])(?:${[...byNickname.keys()].join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  }
  return text.replace(nicknames, (nickname) => byNickname.get(nickname));
}
