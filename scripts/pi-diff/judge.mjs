#!/usr/bin/env bun
// Differential judge: runs a modlearn "pi" spec against a Pi extension using the
// REAL Pi runtime (@mariozechner/pi-coding-agent, located via PI_CODING_AGENT_DIR).
//
//   PI_CODING_AGENT_DIR=/work/pi-runtime bun scripts/pi-diff/judge.mjs <spec.json> <extension.ts|js>
//
// Prints {"piVersion": "...", "scenarios": [{"name": ..., "assertions": [{"type", "passed", "message"}]}]}
// See README.md for the exact semantics of each assertion type.
import * as fs from "node:fs";
import * as path from "node:path";
import {
  BASE_SYSTEM_PROMPT, CALL_ID, createPiSession, deepEqual, extensionStats, loadPi, textOf,
} from "./pi-harness.mjs";

const [specPath, extPath] = process.argv.slice(2);
if (!specPath || !extPath) {
  process.stderr.write("usage: bun scripts/pi-diff/judge.mjs <spec.json> <extension.ts|js>\n");
  process.exit(2);
}

// Keep stdout for the verdict JSON only: Pi and extensions may console.log.
const realStdoutWrite = process.stdout.write.bind(process.stdout);
console.log = (...a) => console.error(...a);
console.info = (...a) => console.error(...a);

const DEFAULT_PROMPT = "Install a Python package.";
const asList = (v) => (v == null ? [] : Array.isArray(v) ? v : [v]);
const j = (v) => JSON.stringify(v);

function checkText(text, contains, notContains) {
  const missing = asList(contains).filter((c) => !text.includes(String(c)));
  const present = asList(notContains).filter((c) => text.includes(String(c)));
  const problems = [];
  if (missing.length) problems.push(`missing ${j(missing)}`);
  if (present.length) problems.push(`unexpectedly contains ${j(present)}`);
  return { ok: problems.length === 0, problems };
}

/** Observe (not alter) a runner method: record the argument(s) and the outcome. */
function observe(h, method) {
  const runner = h.runner;
  const log = [];
  if (!runner) return log;
  const orig = runner[method].bind(runner);
  runner[method] = async (...args) => {
    let snapshot;
    try { snapshot = structuredClone(args); } catch { snapshot = "(uncloneable)"; }
    const entry = { args: snapshot };
    log.push(entry);
    try {
      entry.result = await orig(...args);
      return entry.result;
    } catch (err) {
      entry.threw = err instanceof Error ? err.message : String(err);
      throw err;
    }
  };
  return log;
}

/** Run one LLM tool call through AgentSession + agent loop; return what happened. */
async function runToolCall(h, toolName, args, recordOpts) {
  const rec = h.recordTool(toolName, recordOpts);
  const callLog = observe(h, "emitToolCall");
  const resultLog = observe(h, "emitToolResult");
  const tr = await h.promptToolCall(toolName, args ?? {});
  const dispatched = callLog.length > 0;
  const hookThrew = callLog[0]?.threw;
  const hookBlocked = !!callLog[0]?.result?.block || hookThrew !== undefined;
  return {
    rec, tr, callLog, resultLog, dispatched, hookBlocked, hookThrew,
    modelText: textOf(tr?.content), modelIsError: tr?.isError,
    note: rec.added ? ` (note: '${toolName}' is not a Pi built-in or registered tool; the judge added a permissive probe tool so the call reaches tool_call — real Pi would answer "Tool ${toolName} not found" without running handlers)` : "",
  };
}

function notDispatchedMessage(r, toolName) {
  if (!r.rec.called && !r.dispatched) {
    return `tool_call was not dispatched: Pi rejected the call before handlers ran: ${j(r.modelText)}`;
  }
  return null;
}

const judges = {
  async mod_loads(a, h) {
    const { extensions, errors } = h.loadResult;
    const expected = a.expectedLoadedCount;
    const countOk = expected == null ? extensions.length >= 1 : extensions.length === expected;
    const passed = errors.length === 0 && countOk;
    return {
      passed,
      message: `loaded ${extensions.length} extension(s)` +
        (expected == null ? " (expected >= 1)" : ` (expected ${expected})`) +
        (errors.length ? `; errors: ${j(errors.map((e) => e.error))}` : "; no errors"),
    };
  },

  async tool_start_blocks(a, h) {
    const r = await runToolCall(h, a.toolName, a.args);
    const nd = notDispatchedMessage(r, a.toolName);
    if (nd) return { passed: false, message: nd + r.note };
    if (!r.hookBlocked || r.rec.called) {
      return { passed: false, message: `not blocked: tool executed with ${j(r.rec.args)}` + r.note };
    }
    const how = r.hookThrew !== undefined ? `handler threw ${j(r.hookThrew)}` : "handler returned block:true";
    if (a.status === "success") {
      return { passed: false, message: `blocked (${how}) but expected status success; model sees isError=${r.modelIsError} ${j(r.modelText)}` + r.note };
    }
    const t = checkText(r.modelText, a.contains, undefined);
    return {
      passed: t.ok,
      message: `blocked (${how}); model sees isError=${r.modelIsError} content ${j(r.modelText)}` +
        (t.ok ? "" : `; reason ${t.problems.join("; ")}`) + r.note,
    };
  },

  // modlearn's reading: a dialog opened while the call's tool_call handlers ran puts it to a human.
  async asks_approval(a, h) {
    const before = h.dialogs.length;
    const r = await runToolCall(h, a.toolName, a.args);
    const nd = notDispatchedMessage(r, a.toolName);
    if (nd) return { passed: false, message: nd + r.note };
    const opened = h.dialogs.slice(before).filter((d) => d.kind !== "editor");
    const asked = opened[0];
    if (!asked) return { passed: false, message: `no dialog opened; model sees ${j(r.modelText)}` + r.note };
    const refused = opened.some((d) => (d.kind === "confirm" ? d.answer !== true : d.answer === undefined));
    if (refused && r.rec.called) return { passed: false, message: `asked, but the tool ran without a yes: ${j(r.rec.args)}` + r.note };
    const confirmedYes = opened.every((d) => d.kind === "confirm" && d.answer === true);
    if (confirmedYes && !r.rec.called) return { passed: false, message: `asked and got a yes, but the tool did not run: ${j(r.modelText)}` + r.note };
    const reason = [asked.title, asked.kind === "select" ? undefined : asked.detail].filter((p) => typeof p === "string" && p !== "").join(": ");
    const t = checkText(reason, a.reasonContains, undefined);
    return { passed: t.ok, message: `asked with ${asked.kind}: ${j(reason)}` + (t.ok ? "" : `; reason ${t.problems.join("; ")}`) + r.note };
  },

  async tool_start_rewrites_args(a, h) {
    const r = await runToolCall(h, a.toolName, a.args);
    const nd = notDispatchedMessage(r, a.toolName);
    if (nd) return { passed: false, message: nd + r.note };
    if (r.hookBlocked || !r.rec.called) {
      return { passed: false, message: `blocked: ${j(r.modelText)}` + r.note };
    }
    const expect = a.expectArgs ?? {};
    const bad = Object.keys(expect).filter((k) => !deepEqual(r.rec.args?.[k], expect[k]));
    return {
      passed: bad.length === 0,
      message: `tool executed with ${j(r.rec.args)}` +
        (bad.length ? `; mismatched keys ${j(bad)} (expected ${j(Object.fromEntries(bad.map((k) => [k, expect[k]])))})` : "") + r.note,
    };
  },

  async tool_start_preserves_args(a, h) {
    const r = await runToolCall(h, a.toolName, a.args);
    const nd = notDispatchedMessage(r, a.toolName);
    if (nd) return { passed: false, message: nd + r.note };
    if (r.hookBlocked || !r.rec.called) {
      return { passed: false, message: `blocked: ${j(r.modelText)}` + r.note };
    }
    const same = deepEqual(r.rec.args, a.args ?? {});
    return {
      passed: same,
      message: same ? `tool executed with unchanged args ${j(r.rec.args)}` : `args changed: ${j(a.args)} -> ${j(r.rec.args)}` + r.note,
    };
  },

  async tool_end_rewrites_result(a, h) {
    const isErr = a.status === "error";
    const output = String(a.output ?? "");
    const r = await runToolCall(h, a.toolName, a.args, { output, fail: isErr });
    const nd = notDispatchedMessage(r, a.toolName);
    if (nd) return { passed: false, message: nd + r.note };
    if (r.hookBlocked || !r.rec.called) {
      return { passed: false, message: `tool_call blocked before the tool ran: ${j(r.modelText)}` + r.note };
    }
    const original = [{ type: "text", text: output }];
    const baselineDetails = isErr ? {} : undefined; // what the agent loop produces with no handlers
    const changed = !deepEqual(r.tr.content, original) || r.tr.isError !== isErr ||
      !deepEqual(r.tr.details, baselineDetails);
    const runnerPatch = r.resultLog[0]?.result;
    let msg = `model sees isError=${r.tr.isError} content ${j(r.modelText)}`;
    if (runnerPatch !== undefined && !changed) {
      msg += `; runner.emitToolResult returned a patch ${j(runnerPatch)} but AgentSession did not apply it` +
        (isErr ? " (AgentSession ignores tool_result patches when the tool errored)" : "");
    } else if (runnerPatch && runnerPatch.isError !== undefined && runnerPatch.isError !== isErr && r.tr.isError === isErr) {
      msg += `; note: handler set isError=${runnerPatch.isError} but AgentSession does not forward isError`;
    }
    if (!changed) return { passed: false, message: `result not rewritten; ${msg}` + r.note };
    const problems = [];
    if (a.expectStatus != null) {
      const got = r.tr.isError ? "error" : "success";
      if (got !== a.expectStatus) problems.push(`status ${got} != expected ${a.expectStatus}`);
    }
    const t = checkText(r.modelText, a.contains, a.notContains);
    problems.push(...t.problems);
    return { passed: problems.length === 0, message: `rewritten; ${msg}` + (problems.length ? `; ${problems.join("; ")}` : "") + r.note };
  },

  async turn_start_injects_message(a, h) {
    let prompt = DEFAULT_PROMPT;
    const users = asList(a.input).filter((i) => i && (i.type ?? "message") === "message" && i.role === "user");
    if (users.length) {
      const c = users[users.length - 1].content;
      prompt = typeof c === "string" ? c : asList(c).map((p) => (typeof p === "string" ? p : p?.text ?? "")).join("");
    }
    const log = observe(h, "emitBeforeAgentStart");
    h.session._baseSystemPrompt = BASE_SYSTEM_PROMPT; // the base prompt AgentSession passes to handlers
    const before = h.llmCalls.length;
    await h.session.prompt(prompt);
    const call = h.llmCalls[before];
    if (!call) return { passed: false, message: "prompt never reached the model (an input handler returned handled?)" };
    const role = a.role ?? "system";
    const entry = log[0];
    if (role === "user") {
      const msgs = entry?.result?.messages ?? [];
      const text = msgs.map((m) => textOf(m.content)).join("\n");
      if (!msgs.length) return { passed: false, message: "no message returned from before_agent_start" };
      const t = checkText(text, a.contains, a.notContains);
      return {
        passed: t.ok,
        message: `${msgs.length} message(s) collected: ${j(text)}; in the LLM context the prompt + injected messages are ${j(call.messages.slice(-(msgs.length + 1)).map((m) => ({ role: m.role, content: m.content })))}` +
          (t.ok ? "" : `; ${t.problems.join("; ")}`),
      };
    }
    const sp = call.systemPrompt;
    if (sp === BASE_SYSTEM_PROMPT) return { passed: false, message: "system prompt unchanged" };
    const added = sp.startsWith(BASE_SYSTEM_PROMPT) ? sp.slice(BASE_SYSTEM_PROMPT.length) : sp;
    const t = checkText(added, a.contains, a.notContains);
    return { passed: t.ok, message: `system prompt added ${j(added)}` + (t.ok ? "" : `; ${t.problems.join("; ")}`) };
  },

  async tool_registered(a, h) {
    const def = h.runner?.getToolDefinition(a.toolName);
    const extra = Object.keys(a).filter((k) => !["type", "toolName"].includes(k));
    const active = h.session.getActiveToolNames().includes(a.toolName);
    return {
      passed: !!def,
      message: def
        ? `tool '${a.toolName}' registered (active: ${active})` + (extra.length ? `; fields not compared: ${j(extra)}` : "")
        : `no tool '${a.toolName}'; registered: ${j((h.runner?.getAllRegisteredTools() ?? []).map((t) => t.definition.name))}`,
    };
  },

  async tool_run_returns(a, h) {
    const { pi } = await loadPi();
    const reg = h.runner?.getAllRegisteredTools().find((t) => t.definition.name === a.toolName);
    if (!reg) return { passed: false, message: `no tool '${a.toolName}' registered` };
    const tool = pi.wrapRegisteredTool(reg, h.runner); // exactly what AgentSession hands the agent loop
    const updates = [];
    let status, output;
    try {
      const res = await tool.execute(CALL_ID, structuredClone(a.args ?? {}), new AbortController().signal, (u) => updates.push(u));
      status = "success";
      output = textOf(res?.content);
    } catch (err) {
      status = "error";
      output = err instanceof Error ? err.message : String(err);
    }
    const problems = [];
    if (a.status && a.status !== status) problems.push(`status ${status} != expected ${a.status}`);
    problems.push(...checkText(output, a.contains, a.notContains).problems);
    return { passed: problems.length === 0, message: `${status}: ${j(output)}` + (problems.length ? `; ${problems.join("; ")}` : "") };
  },

  async command_registered(a, h) {
    const name = String(a.command ?? "").replace(/^\//, "");
    const cmd = h.runner?.getCommand(name);
    return {
      passed: !!cmd,
      message: cmd ? `command '/${name}' registered` : `no command '/${name}'; registered: ${j((h.runner?.getRegisteredCommandsWithPaths() ?? []).map((c) => c.command.name))}`,
    };
  },

  async reload_idempotent(a, _h, ext) {
    const cycles = Math.max(1, a.cycles ?? 3);
    const h = await createPiSession(ext);
    try {
      await h.bind(); // load + session_start
      // modlearn's reading: an extension that does not load is not reload-stable, it is absent.
      const { errors } = h.loadResult;
      if (errors.length > 0) return { passed: false, message: `the extension did not load: ${j(errors.map((e) => e.error))}` };
      const snaps = [extensionStats(h.runner, h.counter)];
      for (let i = 1; i < cycles; i++) {
        await h.session.reload(); // session_shutdown -> loader reload (same event bus) -> session_start
        snaps.push(extensionStats(h.runner, h.counter));
      }
      const key = (s) => j({ byEvent: s.byEvent, tools: s.tools, commands: s.commands, ev: s.eventListenersByChannel });
      const same = snaps.every((s) => key(s) === key(snaps[0]));
      const fmt = snaps.map((s, i) => `cycle ${i + 1}: handlers=${s.handlers} tools=${s.tools} commands=${s.commands} pi.events listeners=${s.eventListeners}${s.eventListeners ? " " + j(s.eventListenersByChannel) : ""}`);
      return { passed: same, message: (same ? "stable across reloads; " : "NOT idempotent; ") + fmt.join("; ") };
    } finally {
      await h.dispose();
    }
  },
};

async function main() {
  const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
  const { version } = await loadPi();
  const ext = path.resolve(extPath);
  const out = { piVersion: version, scenarios: [] };
  for (const sc of spec.evaluation?.scenarios ?? []) {
    const entry = { name: sc.name, assertions: [] };
    out.scenarios.push(entry);
    let h = null;
    try {
      h = await createPiSession(ext, { ui: sc.ui ?? spec.evaluation?.ui }); // fresh load per scenario
      await h.bind(); // session_start, as print mode does
    } catch (err) {
      for (const a of sc.assertions ?? []) {
        entry.assertions.push({ type: a.type, passed: judges[a.type] ? false : null, message: judges[a.type] ? `harness error: ${err?.message ?? err}` : "not compared" });
      }
      continue;
    }
    for (const a of sc.assertions ?? []) {
      const fn = judges[a.type];
      if (!fn) {
        entry.assertions.push({ type: a.type, passed: null, message: "not compared" });
        continue;
      }
      try {
        const r = await fn(a, h, ext);
        entry.assertions.push({ type: a.type, passed: r.passed, message: r.message });
      } catch (err) {
        entry.assertions.push({ type: a.type, passed: false, message: `harness error: ${err?.stack ?? err}` });
      }
    }
    await h.dispose();
  }
  realStdoutWrite(JSON.stringify(out, null, 2) + "\n");
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`pi-diff judge failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
