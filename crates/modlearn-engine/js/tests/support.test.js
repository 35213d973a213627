// Small host modules: turn_start rules, structured clone, the removed-API
// scan, diagnostics severity, tool normalisation and providers.
import { test, assertEqual, assert, assertThrows } from "./harness.js";
import { preserveApprovalFirst, isTurnStartInput, normalizeCancelReason } from "../turn-start.js";
import { structuredCloneValue } from "../clone.js";
import { scanRemovedApis } from "../source-scan.js";
import { boundText, effectiveSeverity, classifyFault, makeDiagnostic } from "../diagnostics.js";
import { normalizeTool, normalizeCommand, checkCollision } from "../registry.js";
import { validateProvider } from "../providers.js";
import { toJson } from "../json.js";
import { utf8Encode } from "../web/encoding.js";

test("approval-first reorder is a stable partition and keeps the same array when in order", () => {
  const A = { type: "approval", n: 1 };
  const B = { type: "approval", n: 2 };
  const r = { role: "system" };
  const u = { role: "user" };
  assertEqual(preserveApprovalFirst(true, [r, A, B, u]), [A, B, r, u]);
  const inOrder = [A, r];
  assert(preserveApprovalFirst(true, inOrder) === inOrder, "same reference expected");
  const noApproval = [r, A];
  assert(preserveApprovalFirst(false, noApproval) === noApproval, "untouched without an original approval");
});

test("turn_start input validity and cancel reasons", () => {
  assert(isTurnStartInput([]), "empty array is valid");
  assert(!isTurnStartInput([null]), "null item is invalid");
  assert(!isTurnStartInput("x"), "string is invalid");
  assertEqual(normalizeCancelReason({ reason: "  why " }), "why");
  assertEqual(normalizeCancelReason({ reason: 3 }), undefined);
});

test("structuredClone copies data, keeps cycles, refuses functions", () => {
  const value = { a: [1, { b: new Date(5) }], m: new Map([["k", 1]]) };
  value.self = value;
  const copy = structuredCloneValue(value);
  assert(copy !== value && copy.self === copy, "cycle kept");
  assertEqual(copy.a[1].b.getTime(), 5);
  assertEqual(copy.m.get("k"), 1);
  assertThrows(() => structuredCloneValue({ f() {} }), "The object can not be cloned.");
});

test("the removed-API scan reads raw text, comments included", () => {
  assertEqual(scanRemovedApis("// letta.getContext()\nctx.getContext();"), ["letta.getContext", "ctx.getContext"]);
  assertEqual(scanRemovedApis("foo.getContext()"), ["getContext"]);
  assertEqual(scanRemovedApis("letta.ui.setStatus('x'); letta.ui.clearStatus()"), ["letta.ui.setStatus", "letta.ui.clearStatus"]);
  assertEqual(scanRemovedApis("const ok = 1;"), []);
});

test("bounded text is cut at its size as written to JSON, escapes and UTF-8 included", () => {
  const written = (text) => utf8Encode(JSON.stringify(text)).length - 2;
  assertEqual(boundText("x".repeat(10), 10), "x".repeat(10));
  assertEqual(boundText("x".repeat(11), 10), `${"x".repeat(10)}… [1 more characters cut]`);
  assertEqual(boundText("\u0001".repeat(10), 30), `${"\u0001".repeat(5)}… [5 more characters cut]`);
  for (const unit of ["é", "語", "😀", "\"", "\n", "\u0000", "\ud800"]) {
    const text = unit.repeat(500);
    const kept = boundText(text, 301).replace(/… \[\d+ more characters cut\]$/, "");
    assert(written(kept) <= 301 && written(kept) > 301 - 12, `${JSON.stringify(unit)}: ${written(kept)} bytes kept`);
    assert(!/[\ud800-\udbff]$/.test(kept) || unit === "\ud800", "a surrogate pair is not split");
  }
});

test("severity follows Letta's phase rules", () => {
  assertEqual(effectiveSeverity("command_override", "error"), "warning");
  assertEqual(effectiveSeverity("deprecated_api", undefined), "warning");
  assertEqual(effectiveSeverity("report", undefined), "error");
  assertEqual(effectiveSeverity("report", "warning"), "warning");
  assertEqual(effectiveSeverity("activate", "warning"), "error");
});

test("faults are classified from the error", () => {
  assertEqual(classifyFault(new RangeError("Maximum call stack size exceeded")), "stack_overflow");
  assertEqual(classifyFault(Object.assign(new Error("x"), { name: "HostAccessError" })), "host_access");
  assertEqual(classifyFault("plain string"), "exception");
  const diagnostic = makeDiagnostic({ owner: null, phase: "report", error: new Error("m"), now: 0 });
  assertEqual(diagnostic.timestamp, "1970-01-01T00:00:00.000Z");
  assert(!("stack" in diagnostic), "report diagnostics carry no stack");
});

test("tool normalisation: approval policy, defaults, errors", () => {
  const run = () => "ok";
  const tool = normalizeTool({ name: "t", description: "d", run, requiresApproval: false, approvalPolicy: "alwaysAsk" });
  assertEqual([tool.approvalPolicy, tool.requiresApproval], ["alwaysAsk", true]);
  const auto = normalizeTool({ name: "t", description: "d", run, requiresApproval: false, parallelSafe: 1 });
  assertEqual([auto.approvalPolicy, auto.requiresApproval, auto.parallelSafe], ["auto", false, false]);
  assertEqual(auto.parameters, { type: "object", properties: {}, additionalProperties: false });
  assertThrows(() => normalizeTool({ name: "bad name", description: "d", run }), "must be 1-64");
  assertThrows(() => normalizeTool({ name: "t", run }), "");
  assertThrows(() => normalizeTool({ name: "t", description: "d", run, approvalPolicy: "never" }), 'approvalPolicy must be "auto", "ask", or "alwaysAsk"');
  assertThrows(() => normalizeTool({ name: "t", description: "d", run, parameters: { type: "array" } }), "must be an object schema");
  assertThrows(() => normalizeTool({ name: "t", description: "d", run, parameters: "x" }), "must be a JSON Schema object");
  // As in Letta, a falsy schema is the empty one.
  assertEqual(normalizeTool({ name: "t", description: "d", run, parameters: null }).parameters, auto.parameters);
});

test("commands and collisions", () => {
  assertThrows(() => normalizeCommand({ id: "/x", description: "d", run() {} }, "/p"), "must not start with '/'");
  const command = normalizeCommand({ id: "x", description: "d", run() {} }, "/p");
  assertEqual([command.order, command.runWhenBusy, command.showInTranscript], [250, false, true]);
  const owner = { scope: "global", path: "/a" };
  const other = { owner: { scope: "global", path: "/b" } };
  assertThrows(() => checkCollision({ kind: "tool", key: "t", existing: other, owner, allowOverride: true }), "already registered by /b");
  checkCollision({ kind: "tool", key: "t", existing: other, owner, override: true, allowOverride: true });
  assertThrows(() => checkCollision({ kind: "permission", key: "p", existing: other, owner, override: true, allowOverride: false }), "already registered");
  assertThrows(() => checkCollision({ kind: "tool", key: "t", existing: { owner: { scope: "agent", path: "/c" } }, owner, override: true, allowOverride: true }), "higher-priority");
});

test("provider validation throws on the first bad field", () => {
  const model = { id: "m", name: "M", api: "openai", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
  validateProvider("p", { models: [model] });
  assertThrows(() => validateProvider("P!", {}), "must match");
  assertThrows(() => validateProvider("p", { models: [{ ...model, id: "a/b" }] }), "must not contain '/'");
  assertThrows(() => validateProvider("p", { models: [model, model] }), "not unique");
  assertThrows(() => validateProvider("p", { models: [{ ...model, input: ["audio"] }] }), "input");
});

test("toJson survives cycles, functions and bigints, and writes shared objects in full", () => {
  const value = { f() {}, n: 10n };
  value.self = value;
  assertEqual(JSON.parse(toJson(value)), { f: "[Function f]", n: "10", self: "[Circular]" });
  const shared = { command: "x" };
  assertEqual(JSON.parse(toJson({ a: shared, b: [shared] })), { a: { command: "x" }, b: [{ command: "x" }] });
});

test("toJson reads nothing a mod put on Object.prototype", () => {
  const reply = { timers: [{ kind: "interval" }], nested: { list: [1, 2] } };
  const expected = JSON.stringify({ timers: [{ kind: "interval" }], nested: { list: [1, 2] } });
  const restore = () => delete Object.prototype.toJSON;
  try {
    // A plain function: JSON.stringify would ask every array for it.
    Object.prototype.toJSON = () => [];
    assertEqual(toJson(reply), expected);
    // A getter that answers "none" when asked on Object.prototype itself.
    Object.defineProperty(Object.prototype, "toJSON", {
      configurable: true,
      get() {
        return this === Object.prototype ? undefined : () => "forged";
      },
    });
    assertEqual(toJson(reply), expected);
  } finally {
    restore();
  }
  // A class's own toJSON (Date's, say) still counts.
  class Stamp {
    toJSON() {
      return "stamp";
    }
  }
  assertEqual(toJson({ at: new Stamp(), day: new Date(0) }), JSON.stringify({ at: "stamp", day: new Date(0) }));
});
