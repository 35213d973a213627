// Letta's load-time scan for removed APIs. It reads the raw source text, so
// a mention inside a comment or a string counts too (as it does in Letta).
// Each pattern needs its `word` in the text: the engine's regular expressions
// are slow on a whole file, and most files mention none of these words.

const RULES = [
  { id: "letta.getContext", word: "getContext", pattern: /\bletta\s*\.\s*getContext\b/ },
  { id: "ctx.getContext", word: "getContext", pattern: /\bctx\s*\.\s*getContext\b/ },
  { id: "getContext", word: "getContext", pattern: /\.\s*getContext\s*\(/, unless: ["letta.getContext", "ctx.getContext"] },
  { id: "letta.ui.setStatuslineRenderer", word: "setStatuslineRenderer", pattern: /\.\s*setStatuslineRenderer\s*\(/ },
  { id: "letta.ui.setStatus", word: "setStatus", pattern: /\.\s*setStatus\s*\(/ },
  { id: "letta.ui.clearStatus", word: "clearStatus", pattern: /\.\s*clearStatus\s*\(/ },
];

/** The last file scanned and what it mentioned: an engine loads the same file in every scenario. */
let lastScan = { source: null, found: [] };

/** Ids of the removed APIs `source` mentions, in rule order. */
export function scanRemovedApis(source) {
  if (source !== lastScan.source) lastScan = { source, found: scan(source) };
  return [...lastScan.found];
}

function scan(source) {
  const found = [];
  for (const rule of RULES) {
    if (rule.unless && rule.unless.some((id) => found.includes(id))) continue;
    if (source.includes(rule.word) && rule.pattern.test(source)) found.push(rule.id);
  }
  return found;
}
