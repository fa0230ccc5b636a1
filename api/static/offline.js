// Scoring when the server cannot be reached: the hand goes to score-worker.js, which runs the
// server's own Python scorer in Pyodide (started on first need, seconds; then milliseconds a
// hand). Answers as the server answers: {status, body}, or {unavailable: reason} where the
// runtime is not installed on the server or was never kept by the service worker.
"use strict";

// loadMs: how long the runtime took to start; lastMs: the last hand, asked to answered.
const offline = { worker: null, waiting: new Map(), next: 1, loadMs: null, lastMs: null };

function offlineWorker() {
  if (offline.worker) return offline.worker;
  const worker = new Worker("static/score-worker.js");
  worker.onmessage = (event) => {
    const resolve = offline.waiting.get(event.data.id);
    offline.waiting.delete(event.data.id);
    if (event.data.loadMs) offline.loadMs = event.data.loadMs;
    if (event.data.unavailable) offline.worker = null; // a later try starts afresh
    if (resolve) resolve(event.data);
  };
  worker.onerror = (event) => { // the worker's own script could not be had
    event.preventDefault();
    offline.worker = null;
    for (const resolve of offline.waiting.values()) resolve({ unavailable: event.message || "no worker" });
    offline.waiting.clear();
  };
  offline.worker = worker;
  return worker;
}

function scoreOnDevice(hand, ruleset) {
  if (typeof Worker !== "function") return Promise.resolve({ unavailable: "no Web Worker" });
  const id = offline.next++;
  const asked = performance.now();
  return new Promise((resolve) => {
    offline.waiting.set(id, (answer) => {
      offline.lastMs = Math.round(performance.now() - asked);
      resolve(answer);
    });
    offlineWorker().postMessage({ id, hand, ruleset });
  });
}
