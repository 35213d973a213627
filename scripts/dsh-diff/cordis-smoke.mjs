// Smoke test for the self-contained Cordis bundle (cordis-bundle-test.mjs).
// Run: node scripts/dsh-diff/cordis-smoke.mjs
import { Context, Service } from './cordis-bundle-test.mjs'

// FiberState is a TS `const enum` and is NOT exported at runtime.
const S = ['PENDING', 'LOADING', 'ACTIVE', 'FAILED', 'DISPOSED', 'UNLOADING']
const out = []
const log = (k, v) => { out.push([k, v]); console.log(k.padEnd(44), JSON.stringify(v)) }
const hooks = (ctx, n) => (ctx.events._hooks[n] || []).length

async function round(provide) {
  const root = new Context()
  let applied = 0
  const plugin = {
    name: 'p', inject: ['tools'],
    apply(ctx) { applied++; ctx.on('tools/pre-execute', (exec, next) => next()); ctx.on('custom/ev', () => {}) },
  }
  const fiber = root.plugin(plugin)
  await Promise.resolve(); await new Promise(r => setTimeout(r, 0))
  log(`[${provide}] before provider: state`, S[fiber.state])
  log(`[${provide}] inject names`, Object.keys(fiber.inject))
  log(`[${provide}] applied`, applied)
  let disposeProvider
  if (provide === 'provide') {
    disposeProvider = root.provide('tools', { register() {} })
  } else {
    class Tools extends Service { constructor(ctx) { super(ctx, 'tools') } register() {} }
    const pf = root.plugin(Tools); await pf; disposeProvider = pf.dispose
  }
  await fiber  // ctx.plugin() returns Fiber & PromiseLike<Fiber>
  log(`[${provide}] after provider: state`, S[fiber.state])
  log(`[${provide}] applied`, applied)
  log(`[${provide}] listeners pre-execute/custom`, [hooks(root, 'tools/pre-execute'), hooks(root, 'custom/ev')])
  log(`[${provide}] effects`, fiber.getEffects().map(e => e.label))
  const regs = [...root.registry.values()].flatMap(rt => [...rt.fibers].map(f => ({ name: rt.name, uid: f.uid, state: S[f.state], inject: Object.keys(f.inject) })))
  log(`[${provide}] registry`, regs)
  await disposeProvider()
  await new Promise(r => setTimeout(r, 0))
  log(`[${provide}] provider removed: state`, S[fiber.state])
  log(`[${provide}] listeners after provider removal`, [hooks(root, 'tools/pre-execute'), hooks(root, 'custom/ev')])
  if (provide === 'provide') root.provide('tools', { register() {} }); else await root.plugin(class T2 extends Service { constructor(c) { super(c, 'tools') } })
  await fiber
  log(`[${provide}] re-provided: state/applied`, [S[fiber.state], applied])
  await fiber.dispose()
  log(`[${provide}] after fiber.dispose(): state/uid`, [S[fiber.state], fiber.uid])
  log(`[${provide}] listeners after dispose`, [hooks(root, 'tools/pre-execute'), hooks(root, 'custom/ev')])
  log(`[${provide}] registry.has(plugin)`, root.registry.has(plugin))
  // dispatch signatures
  root.on('w', (a, b, next) => `A(${a},${b},${next()})`)
  root.on('w', (a, b, next) => `B(${next()})`)
  log(`waterfall('w',1,2,()=>'inner')`, root.waterfall('w', 1, 2, () => 'inner'))
  root.on('s', async (x) => undefined); root.on('s', async (x) => `bail:${x}`); root.on('s', async () => 'never')
  log(`serial('s',7)`, await root.serial('s', 7))
  let e = 0; root.on('e', () => { e++ }); root.emit('e'); log('emit count', e)
  try { root.provide('dup', 1); root.provide('dup', 2) } catch (err) { log('duplicate provide error', err.message) }
}
await round('provide')
await round('service')
