// The page's elements (demo/index.html) by the names the other modules use, and the state
// the page announces on <body> for the browser tests: data-state is one of loading, idle,
// busy, done, cancelled or error.

const $ = (id) => document.getElementById(id);

export const el = {
  input: $('input'), file: $('file'), dropZone: $('drop-zone'), inputPanel: $('input-panel'),
  sampleEn: $('sample-en'), sampleZh: $('sample-zh'), sampleNames: $('sample-names'), sampleContacts: $('sample-contacts'), sampleLarge: $('sample-large'),
  source: $('source'), sourceName: $('source-name'), sourceClear: $('source-clear'),
  fieldRow: $('field-row'), fieldLabel: $('field-label'), fields: $('fields'),
  linkRow: $('link-row'), linkFile: $('link-file'), linkChoose: $('link-choose'), linkSource: $('link-source'), linkName: $('link-name'), linkClear: $('link-clear'),
  inputNote: $('input-note'), inputError: $('input-error'),
  recordsHelp: $('records-help'), textSettings: $('text-settings'), measure: $('measure'), measureHelp: $('measure-help'),
  bySimilarity: $('by-similarity'), byDistance: $('by-distance'), byHelp: $('by-help'),
  similarity: $('similarity'), similarityValue: $('similarity-value'), similaritySlider: $('similarity-slider'), similarityHelp: $('similarity-help'),
  maxDistance: $('max-distance'), maxDistanceValue: $('max-distance-value'), distanceSlider: $('distance-slider'),
  fingerprintOptions: $('fingerprint-options'), fingerprintOptionsHelp: $('fingerprint-options-help'),
  tokenizer: $('tokenizer'), tokenizerHelp: $('tokenizer-help'), wordNgram: $('word-ngram'), charNgram: $('char-ngram'),
  weighting: $('weighting'), caseFold: $('case-fold'), stripPunctuation: $('strip-punctuation'), nfkc: $('nfkc'), code: $('code'),
  progressBox: $('progress-box'), progressLabel: $('progress-label'), progress: $('progress'), cancel: $('cancel'),
  items: $('stat-items'), unique: $('stat-unique'), duplicates: $('stat-duplicates'), groupCount: $('stat-groups'),
  status: $('status'), timing: $('timing'), sampleCheck: $('sample-check'), run: $('run'),
  histogramFigure: $('histogram-figure'), histogram: $('histogram'), histogramSummary: $('histogram-summary'), histogramNote: $('histogram-note'),
  download: $('download'), sort: $('sort'), groups: $('groups'), more: $('more'),
  lookupPanel: $('lookup-panel'), lookupQuery: $('lookup-query'), lookupProgress: $('lookup-progress'),
  lookupStatus: $('lookup-status'), lookupResults: $('lookup-results'),
  lookupReviewHeading: $('lookup-review-heading'), lookupReview: $('lookup-review'),
  reviewPanel: $('review-panel'), reviewStatus: $('review-status'), review: $('review'), reviewMore: $('review-more'),
};

export function setState(state) {
  document.body.dataset.state = state;
}
