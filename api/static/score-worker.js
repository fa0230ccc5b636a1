// The offline scorer: the server's own Python scorer (the `scoring` package and
// api/score_request.py, zipped by the server at offline/scoring.zip) run by Pyodide in this
// worker, so a hand is scored with the network off exactly as `POST /v1/score` scores it.
// Started by offline.js only when the server cannot be reached; the service worker keeps
// the runtime and the zip from the page's last visit online. Messages: {id, hand, ruleset}
// in; {id, status, body} (the route's status and JSON) or {id, unavailable: reason} out.
"use strict";

const RUNTIME = new URL("../offline/pyodide/", self.location.href).href;
const ARCHIVE = new URL("../offline/scoring.zip", self.location.href).href;
const HOME = "/home/pyodide/mjlens";

let loading = null; // a promise of the Python answer() function, once asked for

async function load() {
  const started = performance.now();
  // A runtime that is not installed (404) or not kept offline: importScripts throws.
  importScripts(RUNTIME + "pyodide.js");
  const pyodide = await loadPyodide({ indexURL: RUNTIME, env: { MJLENS_PURE_PYTHON: "1" } });
  const archive = await fetch(ARCHIVE);
  if (!archive.ok) throw new Error(`offline/scoring.zip: ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: HOME });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(HOME)})`);
  const answer = pyodide.pyimport("score_request").answer;
  return { answer, loadMs: Math.round(performance.now() - started) };
}

self.onmessage = async (event) => {
  const { id, hand, ruleset } = event.data;
  let scorer;
  try {
    loading = loading || load();
    scorer = await loading;
  } catch (err) {
    loading = null; // another try later: the runtime may be kept by then
    self.postMessage({ id, unavailable: String((err && err.message) || err) });
    return;
  }
  try {
    const answer = JSON.parse(scorer.answer(JSON.stringify(hand), ruleset));
    self.postMessage({ id, status: answer.status, body: answer.body, loadMs: scorer.loadMs });
  } catch (err) {
    // A bug in the scorer: the route would answer 500 with an incident; here, say so.
    self.postMessage({ id, status: 500, body: { title: "The offline scorer failed", detail: String(err) } });
  }
};
