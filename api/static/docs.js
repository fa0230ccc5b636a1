// A small, offline reader of /openapi.json: FastAPI's Swagger UI loads from a CDN, and the
// server may have no way out. Lists every route with its parameters, body and answers.
"use strict";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function resolve(spec, schema) {
  const ref = schema && schema.$ref;
  if (!ref) return schema;
  return ref.replace(/^#\//, "").split("/").reduce((node, key) => node && node[key], spec);
}

function schemaBlock(spec, schema) {
  const pre = el("pre", "schema");
  pre.tabIndex = 0; // it scrolls: a keyboard must reach it too
  pre.textContent = JSON.stringify(resolve(spec, schema), null, 1);
  return pre;
}

function operation(spec, path, method, op) {
  const card = el("section", "card");
  const head = el("h2");
  head.append(el("code", "method", method.toUpperCase() + " "), el("code", "", path));
  card.append(head);
  if (op.summary) card.append(el("p", "", op.summary));
  if (op.description) card.append(el("p", "hint", op.description));
  const params = op.parameters || [];
  if (params.length) {
    card.append(el("h3", "", "Parameters"));
    const list = el("ul");
    for (const p of params) list.append(el("li", "", `${p.name} (${p.in}${p.required ? ", required" : ""}): ${(p.schema && (p.schema.type || "")) || ""} ${p.description || ""}`));
    card.append(list);
  }
  const body = op.requestBody && op.requestBody.content;
  if (body) {
    for (const [media, content] of Object.entries(body)) {
      card.append(el("h3", "", `Body: ${media}`));
      card.append(schemaBlock(spec, content.schema));
    }
  }
  card.append(el("h3", "", "Answers"));
  const answers = el("ul");
  for (const [status, answer] of Object.entries(op.responses || {})) {
    const media = Object.keys(answer.content || {}).join(", ");
    answers.append(el("li", "", `${status} ${answer.description || ""}${media ? " — " + media : ""}`));
  }
  card.append(answers);
  return card;
}

async function main() {
  const root = document.getElementById("api");
  const spec = await (await fetch("openapi.json")).json();
  root.textContent = "";
  const intro = el("section", "card");
  intro.append(el("h2", "", `${spec.info.title} ${spec.info.version}`), el("p", "", spec.info.summary || ""));
  intro.append(el("p", "hint", "Errors are application/problem+json (RFC 9457). Details: docs/api.md."));
  root.append(intro);
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) root.append(operation(spec, path, method, op));
  }
}

document.addEventListener("DOMContentLoaded", () => main().catch((e) => {
  document.getElementById("api").textContent = "Cannot read openapi.json: " + e;
}));
