// The parameters of DSH's own tools (0.1.1-rc.2: tool-bash, tool-fs, tool-fs-search), for
// the stand-in a gated built-in gets during a probe, so a plugin that looks at the tool
// sees DSH's shape rather than a placeholder.

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
