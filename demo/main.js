// The demo page's entry: connects the input (input.js) and the settings (controls.js) to
// the jobs (jobs.js), whose results render.js shows, and to the "Find near-duplicates of…"
// box (lookup.js), and says when the page is ready
// (body[data-ready], once the WebAssembly module has loaded on the page).
import { applyMeasure, connectControls, pickMaxDistance } from './controls.js';
import { el } from './elements.js';
import { connectHistogram } from './histogram.js';
import { connectInput, currentInput } from './input.js';
import { analyzeNow, analyzeSoon, cancel, currentAnalysis, isRunning, regroup, runInChunks, schedule } from './jobs.js';
import { connectLookup, lookupListChanged, lookupMeasureChanged } from './lookup.js';
import { download, render, renderEmpty, showMoreGroups, showStopped } from './render.js';
import { pageEngine } from './runners.js';
import './style.css';

connectControls({ regroup, analyzeSoon, measureChanged: lookupMeasureChanged });
// input.js calls analyzeSoon after every change of the input: the measure setting's help (what
// 'auto' takes is known once the new list is analysed) and the lookup box follow the list too.
connectInput({
  analyzeSoon: (delay) => {
    applyMeasure();
    analyzeSoon(delay);
    lookupListChanged();
  },
  schedule,
  runInChunks,
});
connectLookup();
connectHistogram(pickMaxDistance);
el.cancel.addEventListener('click', cancel);
el.run.addEventListener('click', () => analyzeNow());
el.download.addEventListener('click', () => {
  if (currentAnalysis()) download(currentAnalysis());
});
el.more.addEventListener('click', () => showMoreGroups(currentAnalysis()));
el.sort.addEventListener('change', () => {
  if (currentAnalysis()) render(currentAnalysis());
});

pageEngine.then(
  () => {
    document.body.dataset.ready = 'true';
    if (!currentInput() && !isRunning()) renderEmpty();
  },
  (error) => showStopped(`The WebAssembly module did not load: ${error.message}`, true),
);
