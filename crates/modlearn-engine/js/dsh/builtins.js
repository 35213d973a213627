// DSH's own tools (0.1.1-rc.2: tool-bash, tool-fs, tool-fs-search) as stand-ins: registered
// before any plugin loads, as DSH's are, with DSH's descriptions and parameters, so a plugin
// that looks at a tool, or wraps `tools.register`, meets what it would meet in DSH. A body
// never runs anything; during a probe it tells the probe that the call reached it.

const string = { type: "string" };
const number = { type: "number" };
const object = (properties, required) => ({ type: "object", properties, required });

const BUILTINS = Object.freeze({
  bash: {
    description: "Run a shell command in the workspace and return its output.",
    parameters: object({ command: string, description: string, timeoutMs: number, workdir: string, run_in_background: { type: "boolean" } }, ["command", "description"]),
  },
  read: {
    description: "Read a file, optionally a range of its lines.",
    parameters: object({ file_path: string, offset: number, limit: number }, ["file_path"]),
  },
  write: { description: "Create or overwrite a file.", parameters: object({ file_path: string, content: string }, ["file_path", "content"]) },
  edit: {
    description: "Replace text in a file.",
    parameters: object({ file_path: string, old_string: string, new_string: string, replace_all: { type: "boolean" } }, ["file_path", "old_string", "new_string"]),
  },
  grep: { description: "Search file contents with a regular expression.", parameters: object({ pattern: string, path: string, include: string }, ["pattern"]) },
  glob: { description: "Find files by name pattern.", parameters: object({ pattern: string, path: string }, ["pattern"]) },
});

/** DSH's description and parameters of the built-in `name`, or a generic tool's. */
export function builtinTool(name) {
  const known = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
  return known ?? { description: `Run ${name}.`, parameters: { type: "object" } };
}

/** The probe in progress, told when a stand-in's body is reached; null between probes. */
export const bodyWatch = { current: null };

const standIns = new WeakSet();

/** A stand-in definition for `name`, DSH's shape when DSH has such a tool. */
export function standIn(name) {
  const definition = {
    name,
    ...builtinTool(name),
    output: { schema: {}, render: () => [] },
    execute: async (args) => {
      bodyWatch.current?.(args);
      return null;
    },
  };
  standIns.add(definition);
  return definition;
}

/** Whether `definition` is one of modlearn's stand-ins rather than a plugin's tool. */
export function isStandIn(definition) {
  return definition !== undefined && standIns.has(definition);
}

/** Registers DSH's built-in tools on a fresh root's `tools` service. */
export function registerBuiltins(tools) {
  for (const name of Object.keys(BUILTINS)) tools.register(standIn(name));
}
