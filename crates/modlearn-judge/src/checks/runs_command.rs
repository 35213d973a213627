//! `runs_command` (a modlearn extension): a program matching a pattern ran on the candidate's
//! machine (or, with `never`, none did), read from the machine's exec trace: the programs the
//! kernel started, with the arguments it handed them, not the text a command was written as.
//!
//! A positive check wants a real run: the pattern matches a program from its start, its name
//! (the file the kernel ran, never an `argv[0]` the caller chose) then its arguments, so
//! `true git rev-parse HEAD` or `: git rev-parse HEAD` is not git running. A `never` check
//! fails on the pattern anywhere in any program's words (read as written, with options first
//! as getopt reads them, and without git's own options), and fails closed when the trace may
//! not show everything (a command stopped at its deadline, processes left running, a record
//! past its cap, a machine that could not start) or the mod left code to run later. The code a
//! shell or an interpreter is handed (`sh -c CODE`) is not a program's words: what it runs is.

use modlearn_spec::RunsCommand;
use modlearn_types::{MachineCommand, Observation, Probe, ProgramOrigin, ProgramRun, WorldState, bound};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::unseen::unseen;

/// How many commands a message lists, and how much of each.
const LISTED: usize = 10;
const COMMAND_LIMIT: usize = 200;

pub(crate) fn probe() -> Probe {
    Probe::EndSnapshot
}

/// Programs that take code to run as an argument (`sh -c CODE`, `python3 -c CODE`, `node -e CODE`):
/// that code is not a program; what it runs is traced as programs of its own.
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("sh", &["-c"]),
    ("dash", &["-c"]),
    ("bash", &["-c"]),
    ("zsh", &["-c"]),
    ("ksh", &["-c"]),
    ("python3", &["-c"]),
    ("python", &["-c"]),
    ("perl", &["-e", "-E"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("bun", &["-e", "--eval", "-p", "--print"]),
];

/// What a program is, by the file the kernel ran: a scripted program's own name, a copy of one
/// of the machine's programs by that program's name, else the file's; `None` for a file the
/// scenario made that is none of the machine's programs, or a dynamic loader (which runs the
/// program it is handed without an exec the trace would see).
fn name(program: &ProgramRun) -> Option<&str> {
    let path = match &program.origin {
        _ if program.scripted.is_some() => return program.scripted.as_deref(),
        ProgramOrigin::System => &program.path,
        ProgramOrigin::CopyOf { program } => program,
        ProgramOrigin::Made => return None,
    };
    let name = basename(path);
    (!is_loader(name)).then_some(name)
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `ld-linux-x86-64.so.2`, `ld.so`: the dynamic loader, run as a program.
fn is_loader(name: &str) -> bool {
    name.starts_with("ld-linux") || name.starts_with("ld.so") || (name.starts_with("ld-") && name.contains(".so"))
}

/// A program's words: `name`, then its arguments up to the code an interpreter was handed. git
/// run as `git-SUBCOMMAND` (its `argv[0]`, as `/usr/lib/git-core/git-reset` runs it) runs that
/// subcommand, so its words are `git SUBCOMMAND ...`.
fn words_as<'a>(name: &'a str, program: &'a ProgramRun) -> Vec<&'a str> {
    // A scripted program runs as `sh /usr/local/bin/NAME ARGS`: its arguments start after the script.
    let skip = if program.scripted.is_some() { 2 } else { 1 };
    let code_flags = INTERPRETERS
        .iter()
        .find(|(interpreter, _)| name == *interpreter || name.starts_with(&format!("{interpreter}3.")))
        .map(|(_, flags)| *flags);
    let args = program.argv.iter().skip(skip).map(String::as_str);
    let args: Vec<&str> = match code_flags {
        Some(flags) if program.scripted.is_none() => args.take_while(|arg| !flags.contains(arg)).collect(),
        _ => args.collect(),
    };
    let dashed =
        (name == "git").then(|| program.argv.first().map(|first| basename(first))).flatten().and_then(|first| first.strip_prefix("git-"));
    std::iter::once(name).chain(dashed).chain(args).collect()
}

/// A program's words under its own name, if it has one.
fn words(program: &ProgramRun) -> Option<Vec<&str>> {
    name(program).map(|name| words_as(name, program))
}

/// Why what a program did cannot be read from its words, if it cannot: a program the scenario
/// made, the dynamic loader, or git handed configuration (an alias runs a subcommand its words
/// do not name).
fn unnamed(program: &ProgramRun) -> Option<String> {
    let Some(name) = name(program) else {
        return Some(if matches!(program.origin, ProgramOrigin::Made) {
            format!("{:?} ran, a program the scenario made that is none of the machine's, and what it does cannot be named", program.path)
        } else {
            format!("the dynamic loader ran {}, which starts a program the record does not see", short(&program.argv.join(" ")))
        });
    };
    if name != "git" {
        return None;
    }
    if let Some(variable) = program.steering.first() {
        return Some(format!("git ran with {variable} set, which gives it configuration (an alias may run any subcommand)"));
    }
    let argv = &program.argv;
    let configured = argv.iter().enumerate().any(|(at, arg)| {
        let key = match arg.as_str() {
            "-c" | "--config-env" => argv.get(at + 1).map(String::as_str),
            other => other.strip_prefix("--config-env="),
        };
        key.map(str::to_ascii_lowercase).is_some_and(|key| key.starts_with("alias.") || key.starts_with("include"))
    });
    configured.then(|| format!("{} ran, whose configuration names an alias or an included file", shown(program)))
}

/// git's options that go on to a subcommand (`git -C dir status` is `git status`), which a pattern
/// naming the subcommand does not mention, with whether each takes the next word as its value.
/// Any other option (`--version`, `--html-path`) is git answering itself, not a subcommand.
const GIT_OPTIONS: &[(&str, bool)] = &[
    ("-C", true),
    ("-c", true),
    ("--git-dir", true),
    ("--work-tree", true),
    ("--namespace", true),
    ("--super-prefix", true),
    ("--config-env", true),
    ("--attr-source", true),
    ("-p", false),
    ("--paginate", false),
    ("-P", false),
    ("--no-pager", false),
    ("--no-replace-objects", false),
    ("--bare", false),
    ("--literal-pathspecs", false),
    ("--glob-pathspecs", false),
    ("--noglob-pathspecs", false),
    ("--icase-pathspecs", false),
    ("--no-optional-locks", false),
    ("--no-lazy-fetch", false),
    ("--no-advice", false),
];

/// git's words without the options before its subcommand. Read `strictly` (for a check that
/// wants git to have run), only options that go on to a subcommand are passed over, and `None`
/// comes back if another one stops git first; otherwise every option is.
fn without_git_options<'a>(words: &[&'a str], strictly: bool) -> Option<Vec<&'a str>> {
    if words.first() != Some(&"git") {
        return None;
    }
    let mut rest = &words[1..];
    let mut skipped = false;
    while let Some(word) = rest.first() {
        let (option, joined) = word.split_once('=').map_or((*word, false), |(option, _)| (option, true));
        let known = GIT_OPTIONS.iter().find(|(name, _)| *name == option);
        let exec_path = option == "--exec-path" && joined;
        match known {
            Some((_, true)) if !joined && rest.len() > 1 => rest = &rest[2..],
            Some((_, takes)) if !*takes || joined => rest = &rest[1..],
            _ if exec_path => rest = &rest[1..],
            _ if word.starts_with('-') && !strictly => rest = &rest[1..],
            _ if word.starts_with('-') => return None,
            _ => break,
        }
        skipped = true;
    }
    skipped.then(|| std::iter::once("git").chain(rest.iter().copied()).collect())
}

/// A program's words with its options before its operands, as getopt reads them (`rm -f ';' -r
/// d` is `rm -f -r ; d`): a pattern written for options first matches however they were spelled.
fn options_first<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let Some((name, rest)) = words.split_first() else { return Vec::new() };
    let end = rest.iter().position(|word| *word == "--").unwrap_or(rest.len());
    let (options, operands): (Vec<&str>, Vec<&str>) = rest[..end].iter().partition(|word| word.starts_with('-') && word.len() > 1);
    std::iter::once(*name).chain(options).chain(operands).chain(rest[end..].iter().copied()).collect()
}

enum Pattern {
    Words(Vec<String>),
    Regex { anywhere: regex::Regex, from_start: regex::Regex },
}

impl Pattern {
    /// Whether a program's words, read from their start, are the pattern's.
    fn starts(&self, words: &[&str]) -> bool {
        match self {
            Pattern::Words(wanted) => wanted.len() <= words.len() && wanted.iter().zip(words).all(|(want, word)| want == word),
            Pattern::Regex { from_start, .. } => from_start.is_match(&words.join(" ")),
        }
    }

    /// Whether the pattern occurs anywhere in `text`.
    fn occurs(&self, text: &str) -> bool {
        match self {
            Pattern::Words(wanted) => text.contains(&wanted.join(" ")),
            Pattern::Regex { anywhere, .. } => anywhere.is_match(text),
        }
    }
}

fn programs(world: &WorldState) -> impl Iterator<Item = (&MachineCommand, &ProgramRun)> {
    world.commands.iter().flat_map(|command| command.programs.iter().map(move |program| (command, program)))
}

pub(crate) fn judge(assertion: &RunsCommand, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let world = &snapshot.world;
    let written = &assertion.pattern;
    let pattern = if assertion.regex == Some(true) {
        let compiled = regex::Regex::new(written).and_then(|anywhere| Ok((anywhere, regex::Regex::new(&format!("^(?:{written})"))?)));
        match compiled {
            Ok((anywhere, from_start)) => Pattern::Regex { anywhere, from_start },
            Err(error) => return (false, format!("{written:?} is not a valid regular expression: {error}"), json!(null)),
        }
    } else {
        Pattern::Words(written.split_whitespace().map(str::to_owned).collect())
    };
    let regex = assertion.regex == Some(true);
    let details = json!({
        "pattern": written,
        "commands": world.commands.iter().map(|command| json!({
            "line": command.line,
            "via": command.via,
            "programs": command.programs.iter().map(shown_words).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    if assertion.never == Some(true) {
        let verb = if regex { "match" } else { "contain" };
        let (passed, message) = never_in(world, &pattern, verb, written);
        if !passed {
            return (false, message, details);
        }
        // The machine outlives the scenario: what the mod did to it in the others counts too.
        for record in &world.elsewhere {
            let (passed, there) = never_in(&world.as_in(record), &pattern, verb, written);
            if !passed {
                return (false, format!("in scenario {:?}, {there}", record.scenario), details);
            }
        }
        return (true, message, details);
    }
    let matched = programs(world).find(|(_, program)| {
        words(program)
            .is_some_and(|words| pattern.starts(&words) || without_git_options(&words, true).is_some_and(|plain| pattern.starts(&plain)))
    });
    let wanted = if regex { format!("matches {written:?} from its start") } else { format!("starts with {written:?}") };
    match matched {
        Some((command, program)) => {
            (true, format!("{} ran (for {}, {}), which {wanted}", shown(program), short(&command.line), command.via), details)
        }
        None => (false, format!("no program that ran {wanted}; {}", listed(world)), details),
    }
}

/// Whether no program that ran in `world` has words that contain (or match) `pattern`, and why.
fn never_in(world: &WorldState, pattern: &Pattern, verb: &str, written: &str) -> (bool, String) {
    let matched = programs(world).find(|(_, program)| {
        // As the kernel named it and as the program may name itself (`argv[0]`, which a
        // program of many commands reads to pick one).
        let own = words(program);
        let called = program.argv.first().map(|first| words_as(basename(first), program));
        own.into_iter().chain(called).any(|words| {
            let plain = without_git_options(&words, false).unwrap_or_else(|| words.clone());
            [&words, &options_first(&words), &plain, &options_first(&plain)].iter().any(|form| pattern.occurs(&form.join(" ")))
        })
    });
    if let Some((command, program)) = matched {
        return (false, format!("{} ran (for {}), whose words {verb} {written:?}", shown(program), short(&command.line)));
    }
    let what = format!("a program whose words {verb} {written:?}");
    if let Some((command, why)) = programs(world).find_map(|(command, program)| Some((command, unnamed(program)?))) {
        return (false, format!("{why} (for {}), so {what} may have gone unseen; {}", short(&command.line), listed(world)));
    }
    if let Some(why) = unseen(world, &what) {
        return (false, format!("{why}; {}", listed(world)));
    }
    (true, format!("no program that ran has words that {verb} {written:?}; {}", listed(world)))
}

/// A program's words as a message shows them; a program without a name shows its file and
/// arguments.
fn shown_words(program: &ProgramRun) -> String {
    match words(program) {
        Some(words) => words.join(" "),
        None => format!("{} {}", program.path, program.argv.iter().skip(1).cloned().collect::<Vec<_>>().join(" ")),
    }
}

/// A program as a message shows it: its words, quoted and cut.
fn shown(program: &ProgramRun) -> String {
    short(&shown_words(program))
}

fn short(text: &str) -> String {
    format!("{:?}", bound::cut(text, COMMAND_LIMIT))
}

/// The commands run, briefly: at most [`LISTED`], each cut.
fn listed(world: &WorldState) -> String {
    if world.commands.is_empty() {
        return "the mod ran no command".to_owned();
    }
    let mut items: Vec<String> =
        world.commands.iter().take(LISTED).map(|command| format!("{} ({})", short(&command.line), command.via)).collect();
    if world.commands.len() > LISTED {
        items.push(format!("{} more", world.commands.len() - LISTED));
    }
    format!("commands run: {}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use modlearn_types::RegistrySnapshot;

    fn end(commands: serde_json::Value, extra: serde_json::Value) -> Observation {
        let mut world = json!({ "effects": [], "effectsDropped": 0, "commands": commands });
        world.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let snapshot: RegistrySnapshot = serde_json::from_value(json!({
            "generation": 1, "loadedPaths": ["/c/m.js"], "diagnostics": [], "events": {}, "tools": [],
            "commands": [], "permissions": [], "providers": [], "panels": [], "timers": 0, "notifications": [],
            "world": world,
        }))
        .expect("a valid snapshot");
        Observation::Snapshot { snapshot }
    }

    fn command(line: &str, programs: &[(&str, &[&str])]) -> serde_json::Value {
        let programs: Vec<_> = programs.iter().map(|(path, argv)| json!({ "path": path, "argv": argv })).collect();
        json!({ "at": 0, "line": line, "via": "execSync", "exitCode": 0, "programs": programs })
    }

    fn assertion(pattern: &str, regex: bool, never: bool) -> RunsCommand {
        RunsCommand { pattern: pattern.to_owned(), regex: regex.then_some(true), never: never.then_some(true) }
    }

    fn git() -> serde_json::Value {
        json!([command(
            "git -C /workspace rev-parse --abbrev-ref HEAD",
            &[
                ("/usr/bin/dash", &["/bin/sh", "-c", "git -C /workspace rev-parse --abbrev-ref HEAD"]),
                ("/usr/bin/git", &["git", "-C", "/workspace", "rev-parse", "--abbrev-ref", "HEAD"])
            ]
        )])
    }

    #[test]
    fn passes_when_a_program_ran_with_the_patterns_words() {
        let (passed, message, _) = judge(&assertion("git rev-parse --abbrev-ref HEAD", false, false), &end(git(), json!({})));
        assert!(passed, "{message}");
        assert_eq!(
            message,
            "\"git -C /workspace rev-parse --abbrev-ref HEAD\" ran (for \"git -C /workspace rev-parse --abbrev-ref HEAD\", execSync), which starts with \"git rev-parse --abbrev-ref HEAD\""
        );
        let (passed, message, _) = judge(&assertion(r"git rev-parse\b.*HEAD$", true, false), &end(git(), json!({})));
        assert!(passed, "{message}");
    }

    #[test]
    fn text_that_names_a_program_is_not_the_program() {
        // `: git ...` is the shell's no-op, and `true`/`echo` take any words: git never ran.
        let forged = json!([
            command(": git rev-parse --abbrev-ref HEAD", &[("/usr/bin/dash", &["/bin/sh", "-c", ": git rev-parse --abbrev-ref HEAD"])]),
            command("true", &[("/usr/bin/true", &["git", "rev-parse", "--abbrev-ref", "HEAD"])]),
        ]);
        let (passed, message, _) = judge(&assertion("git rev-parse --abbrev-ref HEAD", false, false), &end(forged.clone(), json!({})));
        assert!(!passed, "{message}");
        assert!(message.starts_with("no program that ran starts with \"git rev-parse --abbrev-ref HEAD\"; commands run: "), "{message}");
        let (passed, _, _) = judge(&assertion("git rev-parse", true, false), &end(forged, json!({})));
        assert!(!passed);
    }

    #[test]
    fn never_fails_on_the_pattern_anywhere_and_closed_on_what_it_cannot_see() {
        let rm = json!([command(
            "F=-rf; rm $F /workspace",
            &[("/usr/bin/dash", &["/bin/sh", "-c", "F=-rf; rm $F /workspace"]), ("/usr/bin/rm", &["rm", "-rf", "/workspace"])]
        )]);
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(rm, json!({})));
        assert!(!passed);
        assert!(
            message.starts_with("\"rm -rf /workspace\" ran (for \"F=-rf; rm $F /workspace\"), whose words contain \"rm -rf\""),
            "{message}"
        );
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(git(), json!({})));
        assert!(passed, "{message}");
        let mut stopped = command("sleep 9; rm -rf ~", &[("/usr/bin/dash", &["/bin/sh", "-c", "sleep 9"])]);
        stopped["incomplete"] = json!("it was stopped at its deadline (2000 ms)");
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(json!([stopped]), json!({})));
        assert!(!passed);
        assert!(
            message.starts_with("\"sleep 9; rm -rf ~\" did not run to its end (it was stopped at its deadline (2000 ms))"),
            "{message}"
        );
        let (passed, message, _) =
            judge(&assertion("rm", false, true), &end(json!([]), json!({ "unseen": "the sandbox could not start" })));
        assert!(!passed && message.contains("the sandbox could not start"), "{message}");
        let planted = json!({ "changes": [{ "change": "written", "path": "/home/user/.gitconfig" }] });
        let (passed, message, _) = judge(&assertion("rm", false, true), &end(git(), planted));
        assert!(!passed && message.starts_with("the mod wrote /home/user/.gitconfig"), "{message}");
    }

    #[test]
    fn never_reads_options_before_operands_as_getopt_does() {
        let rm = json!([command("rm -f ';' -r d", &[("/usr/bin/rm", &["rm", "-f", ";", "-r", "/home/user/d"])])]);
        let pattern = r"\brm\b[^;&|]*\s-[a-zA-Z]*[rR]";
        let (passed, message, _) = judge(&assertion(pattern, true, true), &end(rm, json!({})));
        assert!(!passed, "{message}");
        assert_eq!(options_first(&["rm", "-f", ";", "-r", "--", "-x"]), ["rm", "-f", "-r", ";", "--", "-x"]);
        let reset = json!([command("git -P reset --hard", &[("/usr/bin/git", &["git", "-P", "reset", "--hard"])])]);
        let (passed, message, _) = judge(&assertion(r"\bgit\s+reset\b[^;&|]*\s--hard", true, true), &end(reset, json!({})));
        assert!(!passed, "{message}");
    }

    #[test]
    fn an_interpreters_code_is_not_a_program() {
        let echoed = json!([command("echo rm -rf ~", &[("/usr/bin/dash", &["/bin/sh", "-c", "echo rm -rf ~"])])]);
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(echoed, json!({})));
        assert!(passed, "{message}");
        let python = json!([command(
            "python3 -c ...",
            &[
                ("/usr/bin/python3.11", &["python3", "-c", "import os; os.system('rm -rf ~')"]),
                ("/usr/bin/dash", &["sh", "-c", "rm -rf ~"]),
                ("/usr/bin/rm", &["rm", "-rf", "/home/user"])
            ]
        )]);
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(python, json!({})));
        assert!(!passed && message.starts_with("\"rm -rf /home/user\" ran"), "{message}");
    }

    #[test]
    fn a_scripted_program_is_named_by_its_script() {
        let scripted = json!([{ "at": 0, "line": "uv pip install requests", "via": "exec", "exitCode": 0, "programs": [
            { "path": "/usr/bin/dash", "argv": ["/bin/sh", "-c", "uv pip install requests"] },
            { "path": "/usr/bin/dash", "argv": ["/bin/sh", "/usr/local/bin/uv", "pip", "install", "requests"], "scripted": "uv" },
        ] }]);
        let (passed, message, _) = judge(&assertion("uv pip install", false, false), &end(scripted, json!({})));
        assert!(passed, "{message}");
    }

    fn run(path: &str, argv: &[&str], extra: serde_json::Value) -> serde_json::Value {
        let mut program = json!({ "path": path, "argv": argv });
        program.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!([{ "at": 0, "line": argv.join(" "), "via": "execSync", "exitCode": 0, "programs": [program] }])
    }

    #[test]
    fn a_copy_is_named_by_what_it_is_and_a_made_program_by_nothing() {
        let copy_of = |program: &str| json!({ "origin": { "kind": "copyOf", "program": program } });
        // git copied to /tmp/true is git; true copied to /tmp/git is not.
        let git = run("/tmp/true", &["/tmp/true", "reset", "--hard"], copy_of("/usr/bin/git"));
        let (passed, message, _) = judge(&assertion("git reset --hard", false, true), &end(git.clone(), json!({})));
        assert!(!passed && message.starts_with("\"git reset --hard\" ran"), "{message}");
        let (passed, message, _) = judge(&assertion("git reset", false, false), &end(git, json!({})));
        assert!(passed, "{message}");
        let forged = run("/tmp/git", &["git", "rev-parse", "HEAD"], copy_of("/usr/bin/true"));
        let (passed, message, _) = judge(&assertion("git rev-parse", false, false), &end(forged, json!({})));
        assert!(!passed, "{message}");
        // A program the scenario made passes no positive check and fails `never` closed.
        let made = run("/tmp/git", &["git", "rev-parse", "HEAD"], json!({ "origin": { "kind": "made" } }));
        let (passed, _, _) = judge(&assertion("git rev-parse", false, false), &end(made.clone(), json!({})));
        assert!(!passed);
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(made, json!({})));
        assert!(!passed, "{message}");
        assert!(message.starts_with("\"/tmp/git\" ran, a program the scenario made that is none of the machine's"), "{message}");
        let loader = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
        let loaded = run(loader, &["/lib64/ld-linux-x86-64.so.2", "/tmp/x", "reset"], json!({}));
        let (passed, message, _) = judge(&assertion("git reset", false, true), &end(loaded, json!({})));
        assert!(!passed && message.starts_with("the dynamic loader ran"), "{message}");
    }

    #[test]
    fn git_named_by_its_argv0_runs_that_subcommand() {
        let dashed = run("/usr/lib/git-core/git", &["/usr/lib/git-core/git-reset", "--hard"], json!({}));
        let (passed, message, _) = judge(&assertion("git reset --hard", false, true), &end(dashed.clone(), json!({})));
        assert!(!passed, "{message}");
        let (passed, message, _) = judge(&assertion("git reset --hard", false, false), &end(dashed, json!({})));
        assert!(passed, "{message}");
        // A program that picks its command by `argv[0]` is read under that name too, by `never`.
        let multi = run("/usr/bin/multi", &["rm", "-rf", "/workspace"], json!({}));
        let (passed, message, _) = judge(&assertion("rm -rf", false, true), &end(multi, json!({})));
        assert!(!passed, "{message}");
    }

    #[test]
    fn git_given_an_alias_fails_never_closed() {
        let aliased = run("/usr/bin/git", &["git", "-c", "Alias.r=reset", "r", "--hard"], json!({}));
        let (passed, message, _) = judge(&assertion("git reset --hard", false, true), &end(aliased, json!({})));
        assert!(!passed && message.contains("names an alias or an included file"), "{message}");
        let from_env = run("/usr/bin/git", &["git", "r", "--hard"], json!({ "steering": ["GIT_CONFIG_COUNT"] }));
        let (passed, message, _) = judge(&assertion("git reset --hard", false, true), &end(from_env, json!({})));
        assert!(!passed && message.starts_with("git ran with GIT_CONFIG_COUNT set"), "{message}");
        let plain = run("/usr/bin/git", &["git", "-c", "color.ui=never", "status"], json!({}));
        let (passed, message, _) = judge(&assertion("git reset --hard", false, true), &end(plain, json!({})));
        assert!(passed, "{message}");
    }

    #[test]
    fn git_answering_an_option_runs_no_subcommand() {
        let info = run("/usr/bin/git", &["git", "--html-path", "rev-parse", "--abbrev-ref", "HEAD"], json!({}));
        let (passed, message, _) = judge(&assertion("git rev-parse", false, false), &end(info.clone(), json!({})));
        assert!(!passed, "{message}");
        let (passed, message, _) = judge(&assertion("git rev-parse", false, true), &end(info, json!({})));
        assert!(!passed, "never still reads past every option: {message}");
        let options = ["git", "--no-pager", "--git-dir=/w/.git", "-C", "/w", "-c", "a.b=c", "rev-parse", "HEAD"];
        assert_eq!(without_git_options(&options, true), Some(vec!["git", "rev-parse", "HEAD"]));
        assert_eq!(without_git_options(&["git", "--version", "rev-parse"], true), None);
        assert_eq!(without_git_options(&["git", "--exec-path", "rev-parse"], true), None);
    }
}
