// The Pi dialect's stages (pi/probes.js) on Pi's own runner (vendor/pi.js): each test loads a
// factory into a session and reads what a probe writes back onto the core event.
import "../host.js";
import { test, assertEqual, assert } from "./harness.js";
import { PiSession } from "../pi/session.js";
import { addedLines, piRegistrations } from "../pi/probes.js";
import { seedWorld } from "../world.js";

/** A host with what the Pi session asks of one: its cwd, and where records go. */
function fakeHost() {
  const host = {
    baseContext: { cwd: "/workspace" },
    diagnostics: [],
    prompts: [],
    notifications: [],
    record: (entry) => host.diagnostics.push({ event: entry.capability?.id, message: entry.error?.message }),
    recordPrompt: (prompt) => host.prompts.push(prompt),
    notify: (owner, message) => host.notifications.push({ mod: owner.id, message }),
    isLive: (owner) => host.live === owner,
  };
  return host;
}

/** A session with `factory` loaded and started, under the scenario's `ui` rules (none: headless). */
async function loaded(factory, ui = null) {
  seedWorld(ui === null ? {} : { dialogs: ui });
  const host = fakeHost();
  const owner = { id: "global:/ext.ts", path: "/ext.ts", generation: 1 };
  host.live = owner;
  host.pi = new PiSession(host);
  await host.pi.load(owner, { default: factory });
  await host.pi.start();
  return host;
}

/** Runs the stage of core event `core` on `event`; returns the event as the probe left it. */
async function probe(host, core, event) {
  const [registration] = piRegistrations(host, core);
  assert(registration, `no registration for ${core}`);
  await registration.handler(event);
  return event;
}

const call = (toolName, args) => ({ toolCallId: "call-1", toolName, args });
const ended = (toolName, args, status, output) => ({ ...call(toolName, args), status, output });

test("a truthy block that is not true blocks, with its reason or Pi's text", async () => {
  const host = await loaded((pi) => {
    pi.on("tool_call", (event) => (event.input.command === "one" ? { block: 1, reason: "numbers block" } : event.input.command === "yes" ? { block: "yes" } : undefined));
  });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "one" }))).result, { status: "error", output: "numbers block" });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "yes" }))).result, { status: "error", output: "Tool execution was blocked" });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "ls" }))).args, { command: "ls" });
});

test("a throwing gate blocks with the error's message, or Pi's wrapper text for what is no Error", async () => {
  const host = await loaded((pi) => {
    pi.on("tool_call", (event) => {
      if (event.input.command === "error") throw new Error("gate exploded");
      throw "nope";
    });
  });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "error" }))).result.output, "gate exploded");
  assertEqual((await probe(host, "tool_start", call("bash", { command: "x" }))).result.output, "Extension failed, blocking execution: nope");
});

test("in-place edits of the input reach the tool; a new input object does not", async () => {
  const host = await loaded((pi) => {
    pi.on("tool_call", (event) => {
      if (event.input.command === "pip install x") event.input.command = "uv pip install x";
      else event.input = { command: "rm -rf /" };
    });
  });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "pip install x" }))).args, { command: "uv pip install x" });
  assertEqual((await probe(host, "tool_start", call("bash", { command: "ls" }))).args, { command: "ls" });
});

test("a call Pi refuses before any gate (an unknown tool, arguments its schema rejects) is marked refused", async () => {
  const seen = [];
  const host = await loaded((pi) => pi.on("tool_call", (event) => void seen.push(event.toolName)));
  assertEqual((await probe(host, "tool_start", call("deploy", {}))).refused, "Tool deploy not found");
  const invalid = await probe(host, "tool_start", call("bash", { cmd: "ls" }));
  assert(String(invalid.refused).includes("command"), invalid.refused);
  assertEqual(seen, []);
});

test("in-place edits of a result's text reach the model, for failed calls too", async () => {
  const host = await loaded((pi) => {
    pi.on("tool_result", (event) => {
      event.content[0].text = event.content[0].text.replace("sk-123", "[redacted]");
    });
  });
  const ok = await probe(host, "tool_end", ended("bash", { command: "cat .env" }, "success", "KEY=sk-123"));
  assertEqual(ok.result, { status: "success", output: "KEY=[redacted]" });
  assertEqual(ok.postExecute.decision, "replace");
  const failed = await probe(host, "tool_end", ended("bash", { command: "cat .env" }, "error", "failed: sk-123"));
  assertEqual(failed.result, { status: "error", output: "failed: [redacted]" });
});

test("patches chain; isError overrides apply; content as a string fails Pi's own check of the content", async () => {
  const host = await loaded((pi) => {
    pi.on("tool_result", (event) => (event.input.command === "flag" ? { isError: true, content: [{ type: "text", text: "flagged" }] } : undefined));
    pi.on("tool_result", (event) => (event.input.command === "string" ? { content: "a string" } : undefined));
  });
  const flagged = await probe(host, "tool_end", ended("bash", { command: "flag" }, "success", "out"));
  assertEqual(flagged.result, { status: "error", output: "flagged" });
  assertEqual(flagged.postExecute.decision, "block");
  const string = await probe(host, "tool_end", ended("bash", { command: "string" }, "success", "out"));
  assertEqual(string.result.status, "error");
  assert(string.result.output.includes("content.some is not a function"), string.result.output);
  const untouched = await probe(host, "tool_end", ended("bash", { command: "ls" }, "success", "out"));
  assertEqual(untouched.result, undefined);
});

test("before_agent_start: systemPromptOptions edits and messages reach the turn; input may handle it", async () => {
  const host = await loaded((pi) => {
    pi.on("input", (event) => (event.text === "stop" ? { action: "handled" } : undefined));
    pi.on("before_agent_start", (event) => {
      event.systemPromptOptions.appendSystemPrompt = "Use the todo tool.";
      return { message: { customType: "reminder", content: `About: ${event.prompt}`, display: false } };
    });
  });
  const turn = await probe(host, "turn_start", { input: [{ type: "message", role: "user", content: "Plan it." }] });
  const added = turn.input.slice(1);
  assertEqual(added[0], { type: "message", role: "user", content: "About: Plan it." });
  assert(added[1].role === "system" && added[1].content.includes("Use the todo tool."), JSON.stringify(added[1]));
  const stopped = await probe(host, "turn_start", { input: [{ type: "message", role: "user", content: "stop" }] });
  assert(stopped.cancel, "an input handler that handles the prompt cancels the turn");
});

test("an actionable turn_end continues only with something new for the model", async () => {
  const host = await loaded((pi) => {
    pi.on("turn_end", (event) => {
      if (event.message.content[0].text === "again") return { continue: true, entries: [{ type: "custom_message", customType: "nudge", content: "Run the tests.", display: false }] };
      if (event.message.content[0].text === "bare") return { continue: true };
      return undefined;
    });
  });
  assertEqual((await probe(host, "turn_end", { stopReason: "end_turn", assistantMessage: "again" })).continue, "Run the tests.");
  assertEqual((await probe(host, "turn_end", { stopReason: "end_turn", assistantMessage: "bare" })).continue, undefined);
  assert(host.diagnostics.some((d) => d.message.includes("without runnable model context")), JSON.stringify(host.diagnostics));
});

test("a dialog a gate opens is an approval: headless it answers no; a scripted person answers", async () => {
  const gate = (pi) => pi.on("tool_call", async (event, ctx) => ((await ctx.ui.confirm("Allow?", event.input.command)) ? undefined : { block: true, reason: "Blocked by user" }));
  const headless = await loaded(gate);
  const refused = await probe(headless, "tool_start", call("bash", { command: "sudo ls" }));
  assertEqual(refused.approval, { asked: true, reason: "Allow?: sudo ls", granted: false });
  assertEqual(refused.result.output, "Blocked by user");
  const person = await loaded(gate, [{ dialog: "confirm", answer: true }]);
  const granted = await probe(person, "tool_start", call("bash", { command: "sudo ls" }));
  assertEqual(granted.approval.granted, true);
  assertEqual(granted.args, { command: "sudo ls" });
});

test("Pi removes an extension's pi.events subscriptions when it shuts down", async () => {
  const host = await loaded((pi) => {
    pi.events.on("todo:clear", () => undefined);
  });
  assertEqual(host.pi.subscriptions.filter((entry) => entry.live).length, 1);
  await host.pi.shutdown("quit");
  host.live = null;
  assertEqual(host.pi.stranded(), []);
});

test("the lines a system prompt gained", () => {
  assertEqual(addedLines("a\nb\nc", "a\nb\nx\nc"), "x");
  assertEqual(addedLines("a\nb", "a\nb"), "");
});
