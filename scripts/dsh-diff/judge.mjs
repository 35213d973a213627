#!/usr/bin/env node
// Differential judge: runs a modlearn "dsh" spec against a DeepSeek Harness
// Cordis plugin using the REAL Cordis core + REAL DSH tools/system-prompt/
// commands/agents/timer services, bundled from deepseek-ai/deepseek-harness
// source by build-runtime.mjs into $DSH_RUNTIME_DIR/dsh-runtime.mjs.
//
//   DSH_RUNTIME_DIR=/work/dsh-runtime node scripts/dsh-diff/judge.mjs <spec.json> <plugin.js|ts>
//
// Prints {"dshVersion": "...", "scenarios": [{"name", "assertions": [{"type", "passed", "message"}]}]}
// Each scenario gets a fresh root Context (new Cordis runtime, new services, plugin loaded once).
// See README.md for the semantics of each assertion type.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'

const [specPath, pluginPath] = process.argv.slice(2)
if (!specPath || !pluginPath) {
  process.stderr.write('usage: DSH_RUNTIME_DIR=... node judge.mjs <spec.json> <plugin.js>\n')
  process.exit(2)
}
const runtimeDir = path.resolve(process.env.DSH_RUNTIME_DIR || '/work/dsh-runtime')
const runtimeFile = path.join(runtimeDir, 'dsh-runtime.mjs')
if (!fs.existsSync(runtimeFile)) {
  process.stderr.write(`missing ${runtimeFile}; build it with build-runtime.mjs (see README.md)\n`)
  process.exit(2)
}

// Keep stdout for the verdict JSON only.
const realStdoutWrite = process.stdout.write.bind(process.stdout)
console.log = (...a) => console.error(...a)
console.info = (...a) => console.error(...a)

// What the plugin leaves running: timers its code made (the plugin is bundled into a file named
// .plugin-*.mjs), and errors thrown where nothing catches them.
const timers = new Map()
const wrapTimer = (set, clear, kind) => [
  (callback, ms, ...rest) => {
    const mine = (new Error().stack ?? '').includes('.plugin-')
    const handle = set((...args) => { if (kind === 'timeout') timers.delete(handle); return callback(...args) }, ms, ...rest)
    if (mine) timers.set(handle, { kind, ms })
    return handle
  },
  (handle) => (timers.delete(handle), clear(handle)),
]
;[globalThis.setTimeout, globalThis.clearTimeout] = wrapTimer(globalThis.setTimeout.bind(globalThis), globalThis.clearTimeout.bind(globalThis), 'timeout')
;[globalThis.setInterval, globalThis.clearInterval] = wrapTimer(globalThis.setInterval.bind(globalThis), globalThis.clearInterval.bind(globalThis), 'interval')
const uncaught = []
process.on('uncaughtException', (e) => uncaught.push(String(e?.message ?? e)))
process.on('unhandledRejection', (e) => uncaught.push(String(e?.message ?? e)))

const runtimeUrl = pathToFileURL(runtimeFile).href
const R = await import(runtimeUrl)
const { Context, SystemPrompt, ToolRuntime, CommandRuntime, AgentRegistry, TimerService } = R
const STATES = ['PENDING', 'LOADING', 'ACTIVE', 'FAILED', 'DISPOSED', 'UNLOADING']
const j = (v) => JSON.stringify(v)
const asList = (v) => (v == null ? [] : Array.isArray(v) ? v : [v])
const withTimeout = (p, ms, what) => Promise.race([
  p, new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout after ${ms}ms: ${what}`)), ms).unref()),
])

// ---------------------------------------------------------------- plugin loading
// Bundle the plugin with esbuild (from DSH_RUNTIME_DIR) so TS works and the DSH
// module specifiers resolve to the SAME runtime instance the judge uses.
const esbuild = createRequire(path.join(runtimeDir, 'x.js'))('esbuild')
function shimFor(spec) {
  const ns = {
    '@deepseek-ai/cordis': null, cordis: null, '@cordisjs/core': null,
    '@deepseek-ai/dsh-tools': 'tools', '@deepseek-ai/dsh-llm': 'llm',
  }
  if (spec === '@deepseek-ai/schemastery' || spec === 'schemastery') {
    return `import { Schema } from ${j(runtimeUrl)}; export default Schema; export { Schema }`
  }
  if (!(spec in ns)) return undefined
  const key = ns[spec]
  const obj = key ? R[key] : R
  const names = Object.keys(obj).filter(n => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default')
  const src = key ? `const O = R.${key};` : 'const O = R;'
  return `import * as R from ${j(runtimeUrl)}; ${src}\n` + names.map(n => `export const ${n} = O.${n};`).join('\n')
    + `\nexport default (O.default ?? O);`
}
const unsupportedImports = []
async function loadPluginModule(file) {
  const result = await esbuild.build({
    entryPoints: [path.resolve(file)], bundle: true, write: false, format: 'esm', platform: 'node',
    target: 'es2022', logLevel: 'silent',
    plugins: [{
      name: 'dsh-shims',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path === runtimeUrl) return { path: runtimeUrl, external: true }
          if (shimFor(args.path) !== undefined) return { path: args.path, namespace: 'dsh-shim' }
          if (args.path.startsWith('node:')) return { path: args.path, external: true }
          if (args.path.startsWith('@deepseek-ai/')) {
            unsupportedImports.push(args.path)
            return { path: args.path, namespace: 'dsh-missing' }
          }
          return undefined
        })
        b.onLoad({ filter: /.*/, namespace: 'dsh-shim' }, (args) => ({ contents: shimFor(args.path), loader: 'js' }))
        b.onLoad({ filter: /.*/, namespace: 'dsh-missing' }, (args) => ({
          contents: `throw new Error(${j(`dsh-diff: module ${args.path} is not in the bundled DSH runtime`)})`, loader: 'js',
        }))
      },
    }],
  })
  const out = path.join(runtimeDir, `.plugin-${process.pid}-${Date.now()}.mjs`)
  fs.writeFileSync(out, result.outputFiles[0].text)
  try { return await import(pathToFileURL(out).href) } finally { fs.rmSync(out, { force: true }) }
}

/** Pick the Cordis plugin from a module namespace (DSH loader semantics: default export, else the module). */
function pickPlugin(mod) {
  const d = mod.default
  if (d && (typeof d === 'function' || typeof d.apply === 'function')) return d
  if (typeof mod.apply === 'function') return mod
  const svc = Object.values(mod).find(v => typeof v === 'function' && v.prototype instanceof R.Service)
  if (svc) return svc
  throw new Error('module exports no Cordis plugin (apply / default / Service subclass)')
}

// ---------------------------------------------------------------- host
async function createHost(plugin) {
  const root = new Context()
  const logs = []
  root.logger.exporter({ export: (m) => logs.push(m) })
  await root.plugin(TimerService)
  await root.plugin(SystemPrompt, {})
  await root.plugin(ToolRuntime, {})
  await root.plugin(CommandRuntime)
  await root.plugin(AgentRegistry)
  // Every service read through a plugin context passes Cordis's internal/get waterfall; kept
  // by fiber uid (a context's fiber can be a tracking proxy).
  const reads = new Map()
  root.on('internal/get', (ctx, name, _error, next) => {
    const uid = ctx.fiber.uid
    if (!reads.has(uid)) reads.set(uid, new Set())
    reads.get(uid).add(String(name))
    return next()
  })

  // Observation layer (host fiber). Per call, runCall adds an OUTERMOST pre-execute
  // listener (prepend, registered last so it is first) that records the waterfall's final
  // decision, and an INNERMOST tools/execute listener that records the args the body gets.
  const calls = new Map() // callId -> record
  let hostCtx
  const host = root.plugin({
    name: 'dsh-diff-host',
    inject: ['tools'],
    apply(ctx) {
      hostCtx = ctx
      ctx.on('tools/result', (exec, result) => { const rec = calls.get(exec.callId); if (rec) rec.final = result })
    },
  })
  await host

  // DSH's built-in tools exist before any plugin loads (so a plugin that wraps tools.register
  // cannot reach them); each answers for the call in progress.
  const current = { rec: null, result: null }
  for (const name of ['bash', 'read', 'write', 'edit', 'grep', 'glob']) {
    root.tools.register({
      name, description: `dsh-diff stand-in for DSH's ${name}`, parameters: { type: 'object' },
      output: { schema: {}, render: (_a, v) => [{ type: 'text', text: current.result ? String(v) : `stub ${name} ran: ${JSON.stringify(v)}` }] },
      async execute(a) {
        if (current.rec) current.rec.stubRanWith = JSON.parse(JSON.stringify(a))
        if (current.result?.fails) throw new Error(current.result.output)
        return current.result ? current.result.output : a
      },
    })
  }

  // The evaluation agent the engine has (its `agents` service): what plugins queue through it
  // is recorded, and turn probes hand it to DSH's agent events.
  const outbox = { injected: [], steered: [], followups: [] }
  const say = (list) => (message) => void list.push(messageText(message))
  const agent = {
    id: 'mod-learning-eval-agent', options: {}, status: 'idle', ctx: root, outbox,
    session: { append: () => ({ seq: 0 }), log: [] },
    inject: say(outbox.injected), steer: say(outbox.steered), followup: say(outbox.followups),
    send: (message, target) => void (target === 'next-step' ? outbox.steered : outbox.followups).push(messageText(message)),
    cancel: () => undefined, whenIdle: async () => undefined,
  }
  const h = { root, calls, logs, hostCtx, reads, current, agent, plugin, baseline: rootEffects(root) }
  await plug(h, plugin)
  return h
}

/** Plugs the candidate into the root, as the engine does: Cordis loads it, then the session starts. */
async function plug(h, plugin) {
  h.loadError = undefined
  h.fiber = h.root.plugin(plugin)
  try { await withTimeout(h.fiber, 5000, 'plugin load') } catch (e) { h.loadError = e }
  h.uid = h.fiber.uid
  // Give PENDING/LOADING transitions a chance to settle.
  for (let i = 0; i < 3; i++) await new Promise(r => setTimeout(r, 0))
  if (h.fiber.state === 2) h.root.emit('agent/session-start', { agent: h.agent, source: 'startup' })
}

/** The text of a DSH message: a string, or its content's text blocks joined. */
function messageText(message) {
  if (typeof message === 'string') return message
  const content = message?.content
  if (typeof content === 'string') return content
  return Array.isArray(content) ? content.filter(b => b?.type === 'text').map(b => b.text).join('\n') : ''
}

/** The listeners on the root, the fibers under it, and the host objects' methods, now. */
function rootEffects(root) {
  const hooks = []
  for (const [name, list] of Object.entries(root.events._hooks)) for (const hook of list ?? []) hooks.push({ name, hook })
  const fibers = []
  for (const runtime of root.registry.values()) for (const fiber of runtime.fibers) fibers.push({ name: String(runtime.name ?? ''), fiber })
  const methods = new Map()
  for (const [name, object] of [['events', root.events], ['registry', root.registry], ...['tools', 'systemPrompt', 'commands', 'timer'].map(n => [n, root.get(n)])]) {
    let level = object
    for (let depth = 0; level && level !== Object.prototype && depth < 4; depth++, level = Object.getPrototypeOf(level)) {
      const found = new Map()
      for (const key of Reflect.ownKeys(level)) {
        const d = Object.getOwnPropertyDescriptor(level, key)
        if (d && typeof d.value === 'function') found.set(key, d.value)
      }
      methods.set(depth === 0 ? name : `${name}${'.__proto__'.repeat(depth)}`, found)
    }
  }
  return { hooks, fibers, methods }
}

/** What the plugin left on the root once it is gone: root listeners, started plugins, patched host methods. */
function stranded(h) {
  const known = new Set([...h.baseline.hooks.map(e => e.hook), ...h.baseline.fibers.map(e => e.fiber)])
  const now = rootEffects(h.root)
  const live = new Set([h.fiber])
  const active = h.fiber.state === 2
  const left = [
    ...now.hooks.filter(({ hook }) => !known.has(hook) && (hook.ctx?.fiber === h.root.fiber || !live.has(hook.ctx?.fiber))).map(({ name }) => name),
    ...now.fibers.filter(({ fiber }) => !known.has(fiber) && !live.has(fiber) && fiber.state !== 4).map(({ name }) => `plugin:${name}`),
  ]
  if (!active) {
    for (const [name, methods] of now.methods) {
      const then = h.baseline.methods.get(name)
      if (!then) continue
      for (const [key, value] of methods) if (then.get(key) !== value) left.push(`patched:${name}.${String(key)}`)
    }
  }
  return left
}

let seq = 0
async function runCall(h, toolName, args, result) {
  const callId = `dsh-diff-${++seq}`
  const rec = { callId, toolName, args, stub: false }
  h.calls.set(callId, rec)
  let disposeStub
  if (!h.root.tools.get(toolName)) {
    rec.stub = true
    // Stub stands in for a built-in the plugin gates but does not register (bash, write, ...);
    // with `result`, it answers that text (or fails with it).
    disposeStub = h.root.tools.register({
      name: toolName, description: `dsh-diff stub for ${toolName}`, parameters: { type: 'object' },
      output: { schema: {}, render: (_a, v) => [{ type: 'text', text: result ? String(v) : `stub ${toolName} ran: ${JSON.stringify(v)}` }] },
      async execute(a) {
        rec.stubRanWith = JSON.parse(JSON.stringify(a))
        if (result?.fails) throw new Error(result.output)
        return result ? result.output : a
      },
    })
  }
  h.current.rec = rec
  h.current.result = result ?? null
  // The probe's listeners go straight into the root's hook list: through ctx.on, a plugin's
  // internal/listener hook would see them and could drop them.
  const hostListener = (name, callback, prepend) => {
    const hooks = (h.root.events._hooks[name] ??= [])
    const hook = { ctx: h.root, callback }
    if (prepend) hooks.unshift(hook); else hooks.push(hook)
    return () => { const at = hooks.indexOf(hook); if (at >= 0) hooks.splice(at, 1) }
  }
  const offPre = hostListener('tools/pre-execute', async (exec, next) => {
    if (exec.callId !== callId) return next()
    let d
    try { d = await next() } catch (e) { rec.preError = String(e?.message ?? e); throw e }
    rec.decisionReturned = true
    rec.decision = d === undefined ? null : JSON.parse(JSON.stringify(d))
    return d
  }, true)
  // The post-execute waterfall's final decision, read as it leaves the waterfall (outermost).
  const offPost = hostListener('tools/post-execute', async (exec, result, next) => {
    const decision = await next()
    if (exec.callId === callId) rec.postDecision = decision
    return decision
  }, true)
  const offExec = hostListener('tools/execute', async (exec, next) => {
    if (exec.callId === callId) { rec.bodyReached = true; rec.bodyArgs = JSON.parse(JSON.stringify(exec.arguments ?? null)) }
    return next()
  })
  try {
    rec.result = await withTimeout(
      h.root.tools.execute({ callId, name: toolName, arguments: args ?? {}, signal: new AbortController().signal }),
      5000, `tools.execute(${toolName})`)
  } catch (e) {
    rec.timeout = String(e?.message ?? e)
  } finally {
    offPre(); offPost(); offExec(); disposeStub?.()
    h.current.rec = null
    h.current.result = null
  }
  // A body that ran is a call that reached its tool, however a listener got there.
  if (rec.stubRanWith !== undefined && !rec.bodyReached) { rec.bodyReached = true; rec.bodyArgs = rec.stubRanWith }
  return rec
}

const textOf = (result) => (result?.content ?? []).map(b => b.type === 'text' ? b.text : `[${b.type}]`).join('\n')
function checkText(text, contains, notContains) {
  const missing = asList(contains).filter(c => !text.includes(String(c)))
  const present = asList(notContains).filter(c => text.includes(String(c)))
  const problems = []
  if (missing.length) problems.push(`missing ${j(missing)}`)
  if (present.length) problems.push(`unexpectedly contains ${j(present)}`)
  return { ok: problems.length === 0, problems }
}
function describeDecision(rec) {
  if (rec.preError) return `pre-execute threw: ${rec.preError}`
  if (!rec.decisionReturned) return 'pre-execute did not settle'
  if (rec.decision === null) return 'pre-execute waterfall returned undefined (a listener returned without next())'
  return `decision=${j(rec.decision)}`
}

/** A turn's start as the engine runs it: agent/pre-step with the prompt, then the assembled system prompt. */
async function turnStart(h, input) {
  const items = asList(input ?? [{ type: 'message', role: 'user', content: 'Install a Python package.' }])
  const messages = items.filter(item => item && item.role === 'user').map(item => ({ role: 'user', content: [{ type: 'text', text: messageText(item) }] }))
  const pending = h.agent.outbox.injected.splice(0)
  const decision = await h.root.waterfall('agent/pre-step', { agent: h.agent, messages, turn: 1, step: 1, signal: new AbortController().signal }, async () => ({ kind: 'enter', messages }))
  if (decision && decision.kind === 'reject') return { cancelled: true }
  const entered = decision && Array.isArray(decision.messages) ? decision.messages.slice(messages.length) : []
  const added = [...pending, ...h.agent.outbox.injected.splice(0), ...entered.map(messageText)].map(text => ({ role: 'user', content: text }))
  const assembly = await h.root.get('systemPrompt').assemble({})
  const system = assembly.sections.map(section => section.text).filter(part => typeof part === 'string' && part !== '').join('\n\n')
  if (system !== '') added.push({ role: 'system', content: system })
  return { cancelled: false, added }
}

/** A turn's end as the engine runs it: agent/turn-stopping; what the plugins steered. */
async function turnEnd(h) {
  const before = h.agent.outbox.steered.length
  await h.root.serial('agent/turn-stopping', { agent: h.agent, turn: 1, signal: new AbortController().signal })
  return h.agent.outbox.steered.slice(before).join('\n')
}

/** A slash command through DSH's commands service. */
async function runCommand(h, name, args) {
  const line = `/${String(name).replace(/^\//, '')}${args ? ` ${args}` : ''}`
  const outcome = await h.root.get('commands').execute(h.agent, line, [], new AbortController().signal)
  const result = outcome?.result
  if (!result) return { type: 'error', text: `${line} is not registered` }
  if (result.kind === 'error') return { type: 'error', text: String(result.text ?? 'command failed') }
  return typeof result.text === 'string' ? { type: 'output', text: result.text } : { type: 'handled', text: '' }
}

/** The event names a fiber listens to, with counts, from its effects' labels. */
function listened(fiber) {
  const counts = {}
  const visit = (effects) => {
    for (const effect of effects ?? []) {
      const match = /^ctx\.(?:on|once)\("([^"]+)"\)$/.exec(String(effect.label))
      if (match) counts[match[1]] = (counts[match[1]] ?? 0) + 1
      visit(effect.children)
    }
  }
  if (fiber.uid !== null) visit(fiber.getEffects())
  return counts
}

/** One lifecycle step, summarised for comparison across cycles. */
async function runStep(h, step) {
  const p = step.payload ?? {}
  if (step.emit === 'tool_start') { const r = await runCall(h, p.toolName, p.args); return j({ decision: r.decision, reached: r.bodyReached, args: r.bodyArgs, text: textOf(r.result) }) }
  if (step.emit === 'tool_end') { const r = await runCall(h, p.toolName, p.args, { output: p.output, fails: p.status === 'error' }); return j({ decision: r.postDecision?.kind, text: textOf(r.result) }) }
  if (step.emit === 'turn_start') return j(await turnStart(h, p.input))
  if (step.emit === 'turn_end') return j(await turnEnd(h))
  if (step.runTool) { const r = await runCall(h, step.runTool, step.args); return j({ error: r.result?.isError, text: textOf(r.result) }) }
  if (step.runCommand) return j(await runCommand(h, step.runCommand, step.args))
  return '(a step DSH has no equivalent for)'
}

// ---------------------------------------------------------------- assertions
async function judge(h, a) {
  const st = STATES[h.fiber.state] ?? String(h.fiber.state)
  switch (a.type) {
    case 'mod_loads': {
      const ok = h.fiber.state === 2 && !h.loadError
      return { passed: ok, message: ok ? 'fiber ACTIVE' : `fiber ${st}${h.loadError ? `; error: ${h.loadError.message}` : ''}${h.fiber.state === 0 ? `; waiting for inject ${j(Object.keys(h.fiber.inject).filter(n => !h.root.get(n)))}` : ''}` }
    }
    case 'no_pending_plugin': {
      const ok = h.fiber.state !== 0
      const missing = Object.keys(h.fiber.inject).filter(n => h.root.get(n) === undefined)
      return { passed: ok, message: ok ? `fiber ${st}` : `fiber PENDING; inject ${j(Object.keys(h.fiber.inject))} unsatisfied: ${j(missing)}` }
    }
    case 'tool_registered': {
      const def = h.root.tools.get(a.toolName)
      return { passed: !!def, message: def ? `tools.get(${j(a.toolName)}) found` : `no tool ${j(a.toolName)}; registered: ${j(h.root.tools.schemas().map(s => s.name))}` }
    }
    case 'command_registered': {
      const name = String(a.command ?? '').replace(/^\//, '')
      // CommandRuntime.list(agent) merges layers for an agent; with no agent it is the global layer.
      const list = h.root.commands.list(undefined).map(c => c.name)
      const ok = list.includes(name)
      return { passed: ok, message: ok ? `command ${j(name)} registered` : `no command ${j(name)}; registered: ${j(list)}` }
    }
    case 'tool_start_blocks': {
      const rec = await runCall(h, a.toolName, a.args)
      if (rec.timeout) return { passed: false, message: rec.timeout }
      const blocked = rec.result.isError && !rec.bodyReached
      // What the model reads; a guard may deny with a value that is no string.
      const reason = textOf(rec.result) || String(rec.result.error?.message ?? '')
      if (!blocked) return { passed: false, message: `not blocked (${describeDecision(rec)}; body ran with ${j(rec.bodyArgs)})` }
      const t = checkText(reason, a.contains, a.notContains)
      if (a.status && a.status !== 'error') t.problems.push(`status is error, expected ${a.status}`)
      return { passed: t.ok && t.problems.length === 0, message: `blocked: ${j(reason)} (${describeDecision(rec)})${t.problems.length ? '; ' + t.problems.join('; ') : ''}` }
    }
    case 'asks_approval': {
      const rec = await runCall(h, a.toolName, a.args)
      if (rec.timeout) return { passed: false, message: rec.timeout }
      if (rec.decision?.kind !== 'ask') return { passed: false, message: `${describeDecision(rec)}; final: ${j(textOf(rec.result))}` }
      const problems = checkText(String(rec.decision.reason ?? ''), a.reasonContains, undefined).problems
      return { passed: problems.length === 0, message: `${describeDecision(rec)}${problems.length ? `; reason ${problems.join('; ')}` : ''}` }
    }
    case 'tool_start_preserves_args': {
      const rec = await runCall(h, a.toolName, a.args)
      if (rec.timeout) return { passed: false, message: rec.timeout }
      if (!rec.bodyReached) return { passed: false, message: `call did not reach the tool (${describeDecision(rec)}; result ${j(textOf(rec.result))})` }
      const ok = isDeepStrictEqual(rec.bodyArgs, a.args ?? {})
      return { passed: ok, message: ok ? `tool ran with identical args (${describeDecision(rec)})` : `tool ran with ${j(rec.bodyArgs)}, expected ${j(a.args)}` }
    }
    case 'tool_run_returns': {
      const rec = await runCall(h, a.toolName, a.args)
      if (rec.timeout) return { passed: false, message: rec.timeout }
      if (rec.stub) return { passed: false, message: `tool ${j(a.toolName)} is not registered by the plugin` }
      const text = textOf(rec.result)
      const status = rec.result.isError ? 'error' : 'success'
      const problems = []
      const want = a.status === 'ok' ? 'success' : a.status
      if (want && want !== status) problems.push(`status ${status}, expected ${want}`)
      const t = checkText(text, a.contains, a.notContains)
      problems.push(...t.problems)
      return { passed: problems.length === 0, message: `${status}: ${j(text)}${rec.result.isError ? '' : ` value=${j(rec.result.value)}`}${problems.length ? '; ' + problems.join('; ') : ''}` }
    }
    case 'post_execute_decides': {
      // The tool's own result is the one the spec names; its render hands the model that text.
      const rec = await runCall(h, a.toolName, a.args, { output: a.output, fails: a.status === 'error' })
      if (rec.timeout) return { passed: false, message: rec.timeout }
      const seen = textOf(rec.result)
      // The decision DSH's post-execute waterfall ended with, as its plugins made it.
      const final = rec.postDecision
      const decision = final?.kind === 'block' ? 'block'
        : final?.kind === 'accept' && (Array.isArray(final.content) || final.value !== undefined) ? 'replace'
        : 'accept'
      const contexts = (rec.result.additionalContexts ?? []).map((m) => (m.content ?? []).map((b) => b.text ?? '').join('')).join('\n')
      const problems = []
      if (decision !== a.decision) problems.push(`decision ${decision}, expected ${a.decision}`)
      problems.push(...checkText(seen, a.contains, a.notContains).problems)
      const c = checkText(contexts, a.contextContains, undefined)
      if (!c.ok) problems.push(`context ${c.problems.join('; ')}`)
      return { passed: problems.length === 0, message: `${decision}: ${j(seen)}${contexts ? ` context ${j(contexts)}` : ''}${problems.length ? '; ' + problems.join('; ') : ''}` }
    }
    case 'declares_what_it_uses': {
      // Cordis's own record: what the fiber injected against what its contexts read (internal/get).
      const declared = Object.keys(h.fiber.inject ?? {})
      const used = [...(h.reads.get(h.uid) ?? [])]
      const undeclared = used.filter((n) => !declared.includes(n))
      const unused = declared.filter((n) => !used.includes(n))
      const ok = h.fiber.state === 2 && undeclared.length === 0 && unused.length === 0
      return { passed: ok, message: `declared ${j(declared)}, read ${j(used)}` }
    }
    case 'turn_start_injects_message': {
      const o = await turnStart(h, a.input)
      if (o.cancelled) return { passed: false, message: 'the step was rejected' }
      const role = a.role ?? 'system'
      const text = o.added.filter(item => item.role === role).map(item => item.content).join('\n')
      if (text === '') return { passed: false, message: `no ${role} message was added` }
      const t = checkText(text, a.contains, a.notContains)
      return { passed: t.ok, message: `${role} added ${j(text)}${t.ok ? '' : '; ' + t.problems.join('; ')}` }
    }
    case 'turn_start_cancels': {
      const o = await turnStart(h, a.input)
      return { passed: o.cancelled, message: o.cancelled ? 'agent/pre-step rejected the step' : 'the step went on' }
    }
    case 'turn_end_continues': {
      const text = await turnEnd(h)
      if (text === '') return { passed: false, message: 'no agent.steer during agent/turn-stopping' }
      const t = checkText(text, a.contains)
      return { passed: t.ok, message: `steered ${j(text)}${t.ok ? '' : '; ' + t.problems.join('; ')}` }
    }
    case 'command_runs': {
      const o = await runCommand(h, a.command, a.args)
      const problems = []
      if (o.type === 'error') return { passed: false, message: `the command failed: ${o.text}` }
      if (a.resultType && a.resultType !== o.type) problems.push(`result ${o.type}, expected ${a.resultType}`)
      problems.push(...checkText(o.text, a.contains).problems)
      return { passed: problems.length === 0, message: `${o.type}: ${j(o.text)}${problems.length ? '; ' + problems.join('; ') : ''}` }
    }
    case 'disposes_cleanly': {
      // A plugin Cordis parked PENDING was plugged in all the same: it has nothing to leave behind.
      if (h.loadError) return { passed: false, message: `fiber ${st}; error: ${h.loadError.message}` }
      for (const step of a.steps ?? []) await runStep(h, step)
      const uncaughtBefore = uncaught.length
      let threw
      try { await withTimeout(h.fiber.dispose(), 3000, 'dispose') } catch (e) { threw = e }
      await new Promise(r => setTimeout(r, 50))
      const leaks = []
      if (threw) leaks.push(`dispose threw: ${threw.message}`)
      const left = stranded(h)
      if (left.length) leaks.push(`left on the root: ${j(left)}`)
      const mine = [...timers.values()]
      if (mine.length) leaks.push(`${mine.length} timer(s) of the plugin still scheduled`)
      if (uncaught.length > uncaughtBefore) leaks.push(`code still ran after dispose: ${uncaught[uncaughtBefore]}`)
      return { passed: leaks.length === 0, message: leaks.length ? `leaked: ${leaks.join('; ')}` : 'nothing remained after dispose' }
    }
    case 'reload_idempotent': {
      if (h.loadError) return { passed: false, message: `fiber ${st}; error: ${h.loadError.message}` }
      const cycles = []
      for (let i = 0; i < Math.max(1, a.cycles ?? 3); i++) {
        if (i > 0) await plug(h, h.plugin)
        const steps = []
        for (const step of a.steps ?? []) steps.push(await runStep(h, step))
        const registrations = { tools: h.root.tools.schemas().map(t => t.name).sort(), commands: h.root.commands.list(undefined).map(c => c.name).sort(), listeners: listened(h.fiber) }
        await withTimeout(h.fiber.dispose(), 3000, 'dispose')
        cycles.push({ loaded: h.fiber.uid !== null || !h.loadError, registrations, steps, left: stranded(h).length, timers: timers.size })
      }
      const key = c => j({ r: c.registrations, s: c.steps })
      const differs = cycles.findIndex(c => key(c) !== key(cycles[0]) || c.left > cycles[0].left || c.timers > cycles[0].timers)
      return { passed: differs < 0, message: differs < 0 ? `${cycles.length} cycles alike` : `cycle ${differs + 1} differs: ${j(cycles[differs])} against ${j(cycles[0])}` }
    }
    default:
      return { passed: null, message: 'not compared', skipped: 'no DSH reading of this assertion' }
  }
}

// ---------------------------------------------------------------- main
const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'))
const scenarios = spec?.evaluation?.scenarios ?? []
const out = { dshVersion: R.DSH_VERSION, scenarios: [] }
let mod, modError
try { mod = await loadPluginModule(pluginPath) } catch (e) { modError = e }
const LIFECYCLE = new Set(['disposes_cleanly', 'reload_idempotent'])
for (const sc of scenarios) {
  const res = { name: sc.name, assertions: [] }
  if (sc.script || sc.prompt) {
    res.skipped = "a scripted or prompted session is modlearn's own agent, which the DSH runtime here has not"
    out.scenarios.push(res)
    continue
  }
  let h, hostError
  if (!modError) {
    try { h = await createHost(pickPlugin(mod)) } catch (e) { hostError = e }
  }
  for (const a of sc.assertions ?? []) {
    let r
    if (modError || hostError) {
      const e = modError || hostError
      // Nothing loaded: every check fails, as modlearn's do with nothing registered.
      r = { passed: false, message: `plugin module failed: ${e.message}` }
    } else {
      // A crash of this judge is no verdict about the plugin: it stops the run. Lifecycle
      // checks run on a root of their own, as the engine runs them in engines of their own.
      const own = LIFECYCLE.has(a.type) ? await createHost(pickPlugin(mod)) : h
      r = await judge(own, a)
      if (own !== h) { try { await withTimeout(own.fiber.dispose(), 3000, 'dispose') } catch {} }
    }
    res.assertions.push({ type: a.type, ...r })
  }
  if (h) { try { await withTimeout(h.fiber.dispose(), 3000, 'dispose') } catch {} }
  out.scenarios.push(res)
}
if (unsupportedImports.length) out.unsupportedImports = [...new Set(unsupportedImports)]
realStdoutWrite(JSON.stringify(out, null, 2) + '\n')
process.exit(0)
