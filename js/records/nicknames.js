// Common English nicknames and short forms of given names, each written as its full name so
// that `Bob Johnson` and `Johnson, Robert` compare as one person (README "Records"). A name
// with several full forms (`Alex`: Alexander, Alexandra) is left as it is. Plain JS.

const TABLE = 'abigail:abby,abbie;alexander:sandy;andrew:andy,drew;anthony:tony;barbara:barb,babs;benjamin:ben,benny;'
  + 'catherine:cathy,kate,katie,cat,kathy;charles:charlie,chuck,chas;christopher:chris,kit;daniel:dan,danny;david:dave,davy;'
  + 'deborah:debbie,deb;donald:don,donny;edward:ed,eddie,ted,ned;elizabeth:liz,lizzie,beth,betty,eliza,liza;eugene:gene;'
  + 'frederick:fred,freddie;gregory:greg;harold:harry,hal;henry:hank;jacob:jake;james:jim,jimmy,jamie;jennifer:jen,jenny;'
  + 'jeffrey:jeff;jonathan:jon;joseph:joe,joey;joshua:josh;kenneth:ken,kenny;lawrence:larry;leonard:leo,len;margaret:maggie,meg,peggy,marge;'
  + 'matthew:matt;michael:mike,mikey,mick;nathaniel:nate,nat;nicholas:nick,nicky;patricia:patty,trish;patrick:pat,paddy;'
  + 'peter:pete;philip:phil;rebecca:becky,becca;richard:rick,rich,dick,ricky;robert:bob,rob,bobby,robbie,bert;ronald:ron,ronnie;'
  + 'samuel:sam,sammy;stephen:steve,stevie;susan:sue,susie;theodore:theo;thomas:tom,tommy;timothy:tim;victoria:vicky,tori;'
  + 'walter:walt;william:bill,will,billy,willy,liam;zachary:zach,zack';

let byNickname;

/** The full name of a lower-cased given name or nickname, or the name itself. */
export function fullName(word) {
  if (!byNickname) {
    byNickname = new Map();
    for (const entry of TABLE.split(';')) {
      const [full, short] = entry.split(':');
      for (const nickname of short.split(',')) byNickname.set(nickname, full);
    }
  }
  return byNickname.get(word) ?? word;
}

/** A lower-cased name with each nickname written as its full name (words split at anything but letters and digits). */
export function fullNames(text) {
  return text.replace(/[\p{L}\p{N}]+/gu, fullName);
}
