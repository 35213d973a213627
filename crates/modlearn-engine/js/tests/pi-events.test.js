// Pi's events on the core emissions (pi/events.js), against the rules measured with Pi 0.58.3
// (scripts/pi-diff/README.md): payloads, order, and how results combine.
import { test, assertEqual, assert } from "./harness.js";
import { createRegistry } from "../registry.js";
import { BASE_SYSTEM_PROMPT, BLOCKED_WITHOUT_REASON, piRegistrations } from "../pi/events.js";
import { piContext } from "../pi/handle.js";
import { seedWorld } from "../world.js";

const owner = { id: "global:/ext.ts", path: "/ext.ts", scope: "global", generation: 1 };

function registryWith(handlers) {
  const registry = createRegistry(1);
  for (const [name, handler] of handlers) (registry.piHandlers[name] ??= []).push({ name, handler, owner });
  return registry;
}

/** Runs the core emission `core` as the EmitOperation does; returns the event and what was logged. */
async function emit(core, handlers, event) {
  const logged = [];
  const registrations = piRegistrations(registryWith(handlers), core, event, () => ({ hasUI: false }), (_owner, name, error) => logged.push([name, error.message]));
  for (const registration of registrations) await registration.handler(event);
  return { event, logged, names: registrations.map((registration) => registration.name) };
}

const toolStart = (toolName, args) => ({ toolCallId: "call-1", toolName, args });
const toolEnd = (toolName, status, output) => ({ ...toolStart(toolName, {}), status, output });

test("the first tool_call block wins and later handlers do not run", async () => {
  const seen = [];
  const { event } = await emit("tool_start", [
    ["tool_call", (e) => (seen.push(1), { block: true, reason: "first" })],
    ["tool_call", () => (seen.push(2), { block: true, reason: "second" })],
  ], toolStart("bash", { command: "sudo ls" }));
  assertEqual(event.result, { status: "error", output: "first" });
  assertEqual(seen, [1]);
});

test("a block without a reason gets Pi's text; a throwing handler blocks with its message", async () => {
  assertEqual((await emit("tool_start", [["tool_call", () => ({ block: true })]], toolStart("bash", {}))).event.result.output, BLOCKED_WITHOUT_REASON);
  const thrown = await emit("tool_start", [["tool_call", () => {
    throw new Error("gate exploded");
  }]], toolStart("bash", {}));
  assertEqual(thrown.event.result, { status: "error", output: "gate exploded" });
  assertEqual(thrown.logged, []);
  const odd = await emit("tool_start", [["tool_call", () => {
    throw "nope";
  }]], toolStart("bash", {}));
  assertEqual(odd.event.result.output, "Extension failed, blocking execution: nope");
});

test("in-place input edits rewrite the call; a new input object does not", async () => {
  const edited = await emit("tool_start", [["tool_call", (e) => {
    e.input.command = "uv pip install x";
  }]], toolStart("bash", { command: "pip install x" }));
  assertEqual(edited.event.args, { command: "uv pip install x" });
  const replaced = await emit("tool_start", [["tool_call", (e) => {
    e.input = { command: "rm -rf /" };
  }]], toolStart("bash", { command: "ls" }));
  assertEqual(replaced.event.args, { command: "ls" });
});

test("tool_execution_start runs before tool_call whatever the registration order", async () => {
  const order = [];
  const { names } = await emit("tool_start", [
    ["tool_call", () => order.push("call")],
    ["tool_execution_start", (e) => order.push(`start ${e.args.path}`)],
  ], toolStart("write", { path: "a" }));
  assertEqual(order, ["start a", "call"]);
  assertEqual(names, ["tool_execution_start", "tool_call"]);
});

test("tool_result patches chain, keep what they leave out, and never set isError", async () => {
  const { event } = await emit("tool_end", [
    ["tool_result", (e) => ({ content: [{ type: "text", text: `${e.content[0].text} [1]` }], isError: true })],
    ["tool_result", (e) => {
      assert(e.isError === true, "the second handler sees the first patch");
      return { details: { n: 2 } };
    }],
  ], { ...toolStart("bash", {}), status: "success", output: "out" });
  assertEqual(event.result, { status: "success", output: "out [1]" });
});

test("a content patch marks the result replaced; a details-only patch changes nothing the model sees", async () => {
  const replaced = await emit("tool_end", [["tool_result", () => ({ content: [{ type: "text", text: "[redacted]" }] })]], toolEnd("bash", "success", "KEY=1"));
  assertEqual(replaced.event.postExecute, { decision: "replace", contexts: [] });
  assertEqual(replaced.event.result, { status: "success", output: "[redacted]" });
  const details = await emit("tool_end", [["tool_result", () => ({ details: { seen: true } })]], toolEnd("bash", "success", "KEY=1"));
  assertEqual(details.event.postExecute, undefined);
  assertEqual(details.event.result, undefined);
});

test("patches of a failed call are dropped, as Pi's session does", async () => {
  const { event } = await emit("tool_end", [["tool_result", () => ({ content: [{ type: "text", text: "hidden" }] })]], {
    ...toolStart("bash", {}), status: "error", output: "boom",
  });
  assertEqual(event.result, undefined);
});

test("before_agent_start chains systemPrompt and collects messages after the input", async () => {
  const input = [{ type: "message", role: "user", content: "Plan it." }];
  const { event } = await emit("turn_start", [
    ["before_agent_start", (e) => {
      assertEqual(e.prompt, "Plan it.");
      return { systemPrompt: `${e.systemPrompt} [A]` };
    }],
    ["before_agent_start", (e) => ({ systemPrompt: `${e.systemPrompt} [B]`, message: { customType: "note", content: "hi", display: false } })],
  ], { input });
  assertEqual(event.input, [
    { type: "message", role: "user", content: "Plan it." },
    { type: "message", role: "user", content: "hi", customType: "note" },
    { type: "message", role: "system", content: "[A] [B]" },
  ]);
  const reset = await emit("turn_start", [
    ["before_agent_start", (e) => ({ systemPrompt: `${e.systemPrompt} [A]` })],
    ["before_agent_start", () => ({ systemPrompt: "" })],
  ], { input: [{ type: "message", role: "user", content: "x" }] });
  assertEqual(reset.event.input.length, 1, `an empty prompt is ${BASE_SYSTEM_PROMPT} again`);
});

test("input transforms chain into before_agent_start; handled ends the turn", async () => {
  const prompts = [];
  const { event } = await emit("turn_start", [
    ["before_agent_start", (e) => void prompts.push(e.prompt)],
    ["input", (e) => ({ action: "transform", text: `${e.text}!` })],
    ["input", (e) => ({ action: "transform", text: `${e.text}?` })],
  ], { input: [{ type: "message", role: "user", content: "go" }] });
  assertEqual(prompts, ["go!?"]);
  assertEqual(event.input[0].content, "go!?");
  const ran = [];
  const handled = piRegistrations(registryWith([
    ["input", () => ({ action: "handled" })],
    ["input", () => void ran.push("input")],
    ["before_agent_start", () => void ran.push("agent")],
  ]), "turn_start", { input: [{ role: "user", content: "x" }] }, () => ({}), () => undefined);
  const results = [];
  for (const registration of handled) results.push(await registration.handler({ input: [{ role: "user", content: "x" }] }));
  assertEqual(results[0], { cancel: { reason: "input handled by an extension" } });
  assertEqual(ran, []);
});

test("a throwing observer is logged and the chain goes on", async () => {
  const { event, logged } = await emit("tool_end", [
    ["tool_result", () => {
      throw new Error("observer failed");
    }],
    ["tool_result", () => ({ content: [{ type: "text", text: "patched" }] })],
  ], { ...toolStart("bash", {}), status: "success", output: "out" });
  assertEqual(logged, [["tool_result", "observer failed"]]);
  assertEqual(event.result.output, "patched");
});

test("a yes/no select opened by tool_call asks for approval, as a confirm does", async () => {
  const ui = { select: async () => "No", confirm: async () => false, input: async () => undefined };
  const registrations = piRegistrations(
    registryWith([["tool_call", async (e, ctx) => ((await ctx.ui.select(`Allow ${e.input.command}?`, ["Yes", "No"])) === "Yes" ? undefined : { block: true, reason: "denied" })]]),
    "tool_start",
    toolStart("bash", { command: "rm -rf /" }),
    () => ({ hasUI: true, ui }),
    () => undefined,
  );
  const event = toolStart("bash", { command: "rm -rf /" });
  for (const registration of registrations) await registration.handler(event);
  // A chosen option says neither yes nor no; a dismissed one (undefined) would be a refusal.
  assertEqual(event.approval, { asked: true, reason: "Allow rm -rf /?", granted: null });
  assertEqual(event.result, { status: "error", output: "denied" });
});

// The ctx's UI: headless without a scripted person, Pi's RPC mode with one.
function uiHost(dialogs) {
  seedWorld({ dialogs });
  const host = { baseContext: { cwd: "/workspace" }, signalOf: () => undefined, piPrompts: [] };
  host.recordPrompt = (prompt) => host.piPrompts.push(prompt);
  return host;
}

test("headless: hasUI is false and dialogs answer as Pi's print mode", async () => {
  const host = uiHost(undefined);
  const ctx = piContext(host, owner);
  assertEqual(ctx.hasUI, false);
  assertEqual(await ctx.ui.confirm("Delete?", "all of it"), false);
  assertEqual(await ctx.ui.select("Pick", ["a", "b"]), undefined);
  assertEqual(host.piPrompts, [
    { mod: owner.id, kind: "confirm", title: "Delete?", detail: "all of it" },
    { mod: owner.id, kind: "select", title: "Pick", detail: "a, b" },
  ]);
});

test("scripted: the first matching rule answers, every time; the rest are dismissed", async () => {
  const host = uiHost([
    { dialog: "confirm", titleContains: "rm", answer: true },
    { dialog: "confirm", answer: false },
    { dialog: "select", answer: "b" },
    { dialog: "input", titleContains: "name", answer: null },
  ]);
  const ctx = piContext(host, owner);
  assert(ctx.hasUI, "a scripted person means a UI");
  assertEqual(await ctx.ui.confirm("Run rm -rf build?"), true);
  assertEqual(await ctx.ui.confirm("Run rm -rf dist?"), true);
  assertEqual(await ctx.ui.confirm("Push?"), false);
  assertEqual(await ctx.ui.select("Pick", ["a", "b"]), "b");
  assertEqual(await ctx.ui.input("Your name"), undefined);
  assertEqual(await ctx.ui.editor("Notes"), undefined);
  assertEqual(host.piPrompts.map((p) => [p.kind, p.answer, p.dismissed]), [
    ["confirm", true, undefined],
    ["confirm", true, undefined],
    ["confirm", false, undefined],
    ["select", "b", undefined],
    ["input", undefined, true],
    ["editor", undefined, true],
  ]);
});

test("context handlers chain over the turn's messages and keep the system items last", async () => {
  const input = [{ type: "message", role: "user", content: "Plan the release." }];
  const { event } = await emit("turn_start", [
    ["before_agent_start", (e) => ({ systemPrompt: `${e.systemPrompt} Use the todo tool.` })],
    ["context", (e) => ({ messages: [...e.messages, { role: "user", content: [{ type: "text", text: "Reminder: tests first." }] }] })],
    ["context", (e) => ({ messages: e.messages.filter((m) => !m.content[0].text.startsWith("Plan")) })],
  ], { input });
  assertEqual(event.input, [
    { type: "message", role: "user", content: "Reminder: tests first." },
    { type: "message", role: "system", content: "Use the todo tool." },
  ]);
});
