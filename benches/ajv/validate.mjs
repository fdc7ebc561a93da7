// Validates a JSON Lines stream of PRP events with ajv (draft 2020-12), as the reference
// implementation does: every schema registered by $id, `date-time` asserted with the contract's regex,
// ECMAScript patterns. Usage: node validate.mjs SCHEMA_DIR EVENTS.jsonl
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const [schemaDir, streamPath] = process.argv.slice(2);
if (!schemaDir || !streamPath) {
  console.error("usage: node validate.mjs SCHEMA_DIR EVENTS.jsonl");
  process.exit(2);
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$/);
function load(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) load(path);
    else if (name.endsWith(".json")) ajv.addSchema(JSON.parse(readFileSync(path, "utf8")));
  }
}
load(schemaDir);
const validate = ajv.compile({
  oneOf: [
    { $ref: "https://paperclip.dev/schemas/prp/v1/event.schema.json" },
    { $ref: "https://paperclip.dev/schemas/prp/v2/event.schema.json" },
  ],
});

const text = readFileSync(streamPath, "utf8");
const started = process.hrtime.bigint();
let valid = 0;
let invalid = 0;
let start = 0;
while (start < text.length) {
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  if (end > start) {
    if (validate(JSON.parse(text.slice(start, end)))) valid++;
    else invalid++;
  }
  start = end + 1;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const mib = Buffer.byteLength(text) / 1048576;
console.log(JSON.stringify({ valid, invalid, seconds, mibPerSecond: mib / seconds, perDocumentMicros: (seconds * 1e6) / (valid + invalid) }));
