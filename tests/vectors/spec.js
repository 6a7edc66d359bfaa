// The fingerprint options a golden vector's spec column names (tests/vectors/vectors.h
// defines the columns), for every JS reader of tests/vectors/fingerprints.tsv.
const NAMES = { mode: 'tokenizer', word: 'wordNgram', char: 'charNgram', fold: 'caseFold', punct: 'stripPunctuation', weight: 'weighting' };

/** The FingerprintOptions of a spec such as "mode=auto word=1 char=2 fold=1 punct=strip weight=binary". */
export function optionsOfSpec(spec) {
  const options = {};
  for (const pair of spec.split(' ')) {
    const [key, value] = pair.split('=');
    options[NAMES[key]] = key === 'fold' ? value === '1' : key === 'punct' ? value === 'strip' : key === 'word' || key === 'char' ? Number(value) : value;
  }
  return options;
}
