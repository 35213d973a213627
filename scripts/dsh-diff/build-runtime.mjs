// Build a single ES module with the REAL Cordis core + DSH tools registry from
// a DeepSeek Harness source tree (deepseek-ai/deepseek-harness @ HEAD).
// Usage: node build-runtime.mjs <dsh-source-dir> <out.mjs>
//   run from a dir where `esbuild` is installed (e.g. DSH_RUNTIME_DIR), or set NODE_PATH.
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const [srcDir, outFile] = process.argv.slice(2)
if (!srcDir || !outFile) { console.error('usage: build-runtime.mjs <dsh-src> <out.mjs>'); process.exit(2) }
const require = createRequire(path.join(process.cwd(), 'x.js'))
const esbuild = require('esbuild')

// package name -> directory, scanned from vendor/ and packages/
const pkgs = {}
function walk(d, depth) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === 'node_modules') continue
    const p = path.join(d, e.name), pj = path.join(p, 'package.json')
    if (fs.existsSync(pj)) { try { const j = JSON.parse(fs.readFileSync(pj, 'utf8')); if (j.name) pkgs[j.name] = p } catch {} }
    if (depth < 3) walk(p, depth + 1)
  }
}
walk(path.join(srcDir, 'vendor'), 0); walk(path.join(srcDir, 'packages'), 0)

const resolveSrc = {
  name: 'dsh-src',
  setup(b) {
    b.onResolve({ filter: /^@deepseek-ai\// }, args => {
      const m = /^(@deepseek-ai\/[^/]+)(?:\/(.*))?$/.exec(args.path)
      const dir = pkgs[m[1]]
      if (!dir) return { errors: [{ text: `unknown workspace package ${m[1]}` }] }
      const sub = m[2]
      if (sub && sub.startsWith('src/')) return { path: path.resolve(dir, sub) }
      const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
      // schemastery & friends: prefer src/index.ts, else package main
      const cand = [path.join(dir, 'src', (sub || 'index') + '.ts'), path.join(dir, 'src', sub || 'index', 'index.ts')]
      for (const c of cand) if (fs.existsSync(c)) return { path: path.resolve(c) }
      return { errors: [{ text: `no source for ${args.path} (main=${pj.main})` }] }
    })
    // dsh-llm/src/attribution.ts reads its own package.json through createRequire;
    // inline the version so the bundle needs no file next to it.
    b.onLoad({ filter: /llm[\/\\]llm[\/\\]src[\/\\]attribution\.ts$/ }, args => {
      const pj = JSON.parse(fs.readFileSync(path.join(path.dirname(args.path), '..', 'package.json'), 'utf8'))
      let src = fs.readFileSync(args.path, 'utf8')
      src = src.replace(/import \{ createRequire \} from 'node:module'\n/, '')
        .replace(/createRequire\(import\.meta\.url\)\('\.\.\/package\.json'\)/, JSON.stringify({ version: pj.version }))
      return { contents: src, loader: 'ts' }
    })
  },
}

const entry = `
export * from '@deepseek-ai/cordis'
export * as tools from '@deepseek-ai/dsh-tools'
export { defineTool, ToolRuntime, ToolArgsError } from '@deepseek-ai/dsh-tools'
export { default as Schema } from '@deepseek-ai/schemastery'
export { SystemPrompt } from '@deepseek-ai/dsh-system-prompt'
export { CommandRuntime } from '@deepseek-ai/dsh-commands'
export { AgentRegistry } from '@deepseek-ai/dsh-agent'
export { TimerService } from '@deepseek-ai/cordis-plugin-timer'
export * as llm from '@deepseek-ai/dsh-llm'
export const DSH_VERSION = ${JSON.stringify(JSON.parse(fs.readFileSync(path.join(srcDir, 'package.json'), 'utf8')).version)}
`
const r = await esbuild.build({
  stdin: { contents: entry, resolveDir: srcDir, loader: 'ts', sourcefile: 'dsh-runtime-entry.ts' },
  bundle: true, format: 'esm', platform: 'node', target: 'es2022', tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: false } },
  mainFields: ['module', 'main'], outfile: outFile, plugins: [resolveSrc],
  legalComments: 'inline', logLevel: 'warning', metafile: true,
})
const inputs = Object.keys(r.metafile.inputs)
const byPkg = {}
for (const i of inputs) { const k = i.replace(/\/src\/.*$/, ''); byPkg[k] = (byPkg[k] || 0) + 1 }
console.log(JSON.stringify(byPkg, null, 1))
