// Slash commands against Letta's command runtime (reference §1.5).
import { test, assertEqual, assertThrows } from "./harness.js";
import { commandResultText, normalizeCommandResult, parseCommandArgv, parseSlashCommand } from "../command-runtime.js";

test("argv: whitespace splits, quotes group, backslashes escape, empty words vanish", () => {
  assertEqual(parseCommandArgv(""), []);
  assertEqual(parseCommandArgv("  a   b\tc "), ["a", "b", "c"]);
  assertEqual(parseCommandArgv(`say "hello world" 'it is'`), ["say", "hello world", "it is"]);
  assertEqual(parseCommandArgv(`"it's" 'say "hi"'`), ["it's", 'say "hi"']);
  assertEqual(parseCommandArgv("a\\ b c"), ["a b", "c"]);
  assertEqual(parseCommandArgv(`"a \\" b"`), ['a " b']);
  assertEqual(parseCommandArgv(`x "" y`), ["x", "y"]);
  assertEqual(parseCommandArgv(`pre"fix"post`), ["prefixpost"]);
  assertEqual(parseCommandArgv("end\\"), ["end\\"]);
  assertEqual(parseCommandArgv(`"unclosed quote`), ["unclosed quote"]);
});

test("slash commands: the first token is the id, the rest trimmed is args", () => {
  assertEqual(parseSlashCommand("/notes  add  'a b' "), { command: "notes", args: "add  'a b'" });
  assertEqual(parseSlashCommand("/notes"), { command: "notes", args: "" });
  assertEqual(parseSlashCommand("notes"), null);
  assertEqual(parseSlashCommand("/ x"), null);
  assertEqual(parseSlashCommand("/a/b"), null);
});

test("results are checked and cleaned as Letta does", () => {
  assertEqual(normalizeCommandResult({ type: "prompt", content: "c", systemReminder: false, extra: 1 }), { type: "prompt", content: "c", systemReminder: false });
  assertEqual(normalizeCommandResult({ type: "prompt", content: "c", systemReminder: "no" }), { type: "prompt", content: "c" });
  assertEqual(normalizeCommandResult({ type: "output", output: "o", success: false }), { type: "output", output: "o", success: false });
  assertEqual(normalizeCommandResult({ type: "handled", output: 3 }), { type: "handled" });
  assertThrows(() => normalizeCommandResult("done"), "Mod command must return { type: 'prompt' | 'output' | 'handled' }");
  assertThrows(() => normalizeCommandResult(undefined), "must return");
  assertThrows(() => normalizeCommandResult({ type: "prompt" }), "Mod command prompt result requires content");
  assertThrows(() => normalizeCommandResult({ type: "output", output: 1 }), "Mod command output result requires output");
  assertThrows(() => normalizeCommandResult({ type: "text" }), "Unknown mod command result type: text");
});

test("a prompt is wrapped in a system reminder unless systemReminder is false", () => {
  assertEqual(commandResultText({ type: "prompt", content: "Do X" }), "<system-reminder>\nDo X\n</system-reminder>");
  assertEqual(commandResultText({ type: "prompt", content: "Do X", systemReminder: false }), "Do X");
  assertEqual(commandResultText({ type: "output", output: "o" }), "o");
  assertEqual(commandResultText({ type: "handled" }), null);
});
