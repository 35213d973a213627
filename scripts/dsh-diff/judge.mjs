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

  let loadError
  const fiber = root.plugin(plugin)
  try { await withTimeout(fiber, 5000, 'plugin load') } catch (e) { loadError = e }
  const uid = fiber.uid
  // Give PENDING/LOADING transitions a chance to settle.
  for (let i = 0; i < 3; i++) await new Promise(r => setTimeout(r, 0))
  return { root, fiber, loadError, calls, logs, hostCtx, reads, uid, current }
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
    offPre(); offExec(); disposeStub?.()
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
      const reason = rec.result.error?.message ?? textOf(rec.result)
      if (!blocked) return { passed: false, message: `not blocked (${describeDecision(rec)}; body ran with ${j(rec.bodyArgs)})` }
      const t = checkText(reason, a.contains, a.notContains)
      if (a.status && a.status !== 'error') t.problems.push(`status is error, expected ${a.status}`)
      return { passed: t.ok && t.problems.length === 0, message: `blocked: ${j(reason)} (${describeDecision(rec)})${t.problems.length ? '; ' + t.problems.join('; ') : ''}` }
    }
    case 'asks_approval': {
      const rec = await runCall(h, a.toolName, a.args)
      if (rec.timeout) return { passed: false, message: rec.timeout }
      const ok = rec.decision?.kind === 'ask'
      return { passed: ok, message: `${describeDecision(rec)}; final: ${j(textOf(rec.result))}` }
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
      const original = a.status === 'error' ? `Error: ${a.output}` : a.output
      const decision = rec.result.isError && a.status !== 'error' ? 'block' : seen !== original ? 'replace' : 'accept'
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
    default:
      return { passed: null, message: 'not compared' }
  }
}

// ---------------------------------------------------------------- main
const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'))
const scenarios = spec?.evaluation?.scenarios ?? []
const out = { dshVersion: R.DSH_VERSION, scenarios: [] }
let mod, modError
try { mod = await loadPluginModule(pluginPath) } catch (e) { modError = e }
for (const sc of scenarios) {
  const res = { name: sc.name, assertions: [] }
  let h, hostError
  if (!modError) {
    try { h = await createHost(pickPlugin(mod)) } catch (e) { hostError = e }
  }
  for (const a of sc.assertions ?? []) {
    let r
    if (modError || hostError) {
      const e = modError || hostError
      r = ['mod_loads', 'no_pending_plugin'].includes(a.type) || a.type.startsWith('tool_') || a.type === 'command_registered' || a.type === 'asks_approval'
        ? { passed: false, message: `plugin module failed: ${e.message}` }
        : { passed: null, message: 'not compared' }
    } else {
      try { r = await judge(h, a) } catch (e) { r = { passed: false, message: `judge error: ${e?.stack ?? e}` } }
    }
    res.assertions.push({ type: a.type, ...r })
  }
  if (h) { try { await withTimeout(h.fiber.dispose(), 3000, 'dispose') } catch {} }
  out.scenarios.push(res)
}
if (unsupportedImports.length) out.unsupportedImports = [...new Set(unsupportedImports)]
realStdoutWrite(JSON.stringify(out, null, 2) + '\n')
process.exit(0)
