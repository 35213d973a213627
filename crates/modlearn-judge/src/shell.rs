//! How a shell would read a command line, far enough for `runs_command` to see through
//! respellings: quotes and backslashes removed (`"r"m` is `rm`), one simple command per `;`,
//! `&&`, `||`, `|`, `&`, newline and `$(...)`, leading assignments and wrappers (`sudo`, `env`,
//! `nohup`, `timeout 5`, `nice -n 5`, ...) dropped, `sh -c SCRIPT` read as SCRIPT, and git's
//! global options (`-C dir`, `-c key=value`) dropped. What a shell would run that no reading of
//! the line can show (a command word from a variable, `eval`, a script piped into a shell,
//! `xargs`, an interpreter's code, a git alias) is reported as opaque.

/// The simple commands of `line`, each as its words joined by single spaces, and whether some
/// part of it is opaque.
pub(crate) fn simple_commands(line: &str) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut opaque = false;
    read(line, 0, &mut out, &mut opaque);
    (out, opaque)
}

/// Whether some simple command of `line` is a shell that reads its script from stdin (`sh`,
/// `bash -s`, not `sh -c SCRIPT` nor `sh FILE`).
pub(crate) fn reads_script_from_stdin(line: &str) -> bool {
    simple_commands(line).0.iter().any(|simple| {
        let mut words = simple.split(' ');
        let name = words.next().unwrap_or_default();
        SHELLS.contains(&name) && words.all(|word| word.starts_with('-') && word != "-c")
    })
}

const WRAPPERS: &[&str] = &["sudo", "env", "command", "exec", "nohup", "time", "nice", "doas", "builtin", "stdbuf", "timeout"];
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "fish", "busybox"];

fn read(line: &str, depth: usize, out: &mut Vec<String>, opaque: &mut bool) {
    if depth > 4 {
        *opaque = true;
        return;
    }
    let (parts, substitutions) = split(line);
    for script in substitutions {
        read(&script, depth + 1, out, opaque);
    }
    let mut previous_piped = false;
    for (part, piped) in parts {
        let (mut words, expansions) = words(&part);
        // What the shell would make of a brace list or `$'...'` anywhere, or a glob in the
        // command word (`/bin/r?`), no reading of the line shows.
        if expansions.iter().enumerate().any(|(at, expansion)| expansion.braces || expansion.ansi_c || (at == 0 && expansion.glob)) {
            *opaque = true;
        }
        // `A=1 B=2 cmd`, then `sudo`/`env -i`/... wrappers, in any order.
        loop {
            match words.first().map(String::as_str) {
                Some(word) if is_assignment(word) => {
                    words.remove(0);
                }
                Some(word) if WRAPPERS.contains(&word) => {
                    let wrapper = words.remove(0);
                    drop_wrapper_arguments(&wrapper, &mut words, opaque);
                }
                _ => break,
            }
        }
        let Some(program) = words.first().cloned() else { continue };
        let name = program.rsplit('/').next().unwrap_or(&program).to_owned();
        if program.contains('$') || name == "eval" || name == "source" || name == "." {
            *opaque = true;
        }
        if SHELLS.contains(&name.as_str()) {
            match words.iter().position(|w| w == "-c") {
                Some(at) => match words.get(at + 1) {
                    Some(script) => read(script, depth + 1, out, opaque),
                    None => *opaque = true,
                },
                // A shell reading its script from a pipe or a file: nothing on the line shows it.
                None if previous_piped || words.len() > 1 => *opaque = true,
                None => {}
            }
        }
        if name == "git" {
            // Configuration given on the line may run what the line does not name (an alias,
            // core.fsmonitor, core.hooksPath, core.sshCommand, ...): only settings that run
            // nothing are read through.
            if git_config_may_run(&words) {
                *opaque = true;
            }
            words = git_without_global_options(words);
        }
        // A command whose arguments come from its input, code in another language, a task
        // runner's scripts, or a trap's command run later.
        if name == "xargs" && words.len() > 1
            || name == "trap" && words.len() > 1
            || runs_code(&name, &words[1..])
            || runs_per_file(&name, &words[1..])
        {
            *opaque = true;
        }
        words[0] = name;
        out.push(words.join(" "));
        previous_piped = piped;
    }
}

/// Drops a wrapper's options, their values and its own operands (`timeout 5`, `nice -n 5`,
/// `sudo -u user`), leaving the command it runs first. `env -S STRING` splits a string the
/// line shows only as one word: opaque.
fn drop_wrapper_arguments(wrapper: &str, words: &mut Vec<String>, opaque: &mut bool) {
    let takes_value: &[&str] = match wrapper {
        "sudo" => &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir", "--host", "--prompt"],
        "doas" => &["-u", "-C"],
        "nice" => &["-n", "--adjustment"],
        "timeout" => &["-s", "-k", "--signal", "--kill-after"],
        "stdbuf" => &["-i", "-o", "-e"],
        "env" => &["-u", "-C", "--unset", "--chdir"],
        "time" => &["-f", "-o", "--format", "--output"],
        "exec" => &["-a"],
        _ => &[],
    };
    while let Some(word) = words.first() {
        if word == "--" {
            words.remove(0);
            break;
        }
        if !word.starts_with('-') && !is_assignment(word) {
            break;
        }
        if wrapper == "env" && (word.starts_with("-S") || word.starts_with("--split-string")) {
            *opaque = true;
        }
        let with_value = takes_value.contains(&word.as_str());
        words.remove(0);
        if with_value && !words.is_empty() {
            words.remove(0);
        }
    }
    // timeout's duration comes before the command.
    if wrapper == "timeout" && !words.is_empty() {
        words.remove(0);
    }
}

/// Interpreters whose code (inline or in a file) may run any command, and task runners whose
/// scripts (package.json, a Makefile) may.
const INTERPRETERS: &[&str] = &[
    "python",
    "python2",
    "python3",
    "node",
    "nodejs",
    "perl",
    "ruby",
    "php",
    "bun",
    "bunx",
    "deno",
    "lua",
    "tclsh",
    "osascript",
    "pwsh",
    "Rscript",
    "npm",
    "npx",
    "yarn",
    "pnpm",
    "make",
    "just",
    "rake",
];

/// Whether `name` runs a command of its arguments per file, or removes what it reads: `find
/// -exec`, `tar --remove-files`.
fn runs_per_file(name: &str, args: &[String]) -> bool {
    match name {
        "find" => args.iter().any(|arg| matches!(arg.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")),
        "tar" => args.iter().any(|arg| arg.starts_with("--remove")),
        "zip" => args.iter().any(|arg| arg.starts_with("--remove") || arg == "-m"),
        "rsync" => args.iter().any(|arg| arg.starts_with("--remove") || arg.starts_with("--delete")),
        _ => false,
    }
}

/// Configuration keys given to git on its command line that run nothing.
const GIT_SAFE_CONFIG: &[&str] = &["user.", "color.", "advice.", "init.", "safe.", "log.", "format.", "core.quotepath", "core.autocrlf"];

/// Whether git's words set configuration (`-c key=value`, `--config-env key=VAR`) that is not
/// known to run nothing.
fn git_config_may_run(words: &[String]) -> bool {
    words.windows(2).any(|pair| {
        let key = match pair[0].as_str() {
            "-c" | "--config-env" => pair[1].split('=').next().unwrap_or_default().to_ascii_lowercase(),
            _ => return false,
        };
        !GIT_SAFE_CONFIG.iter().any(|safe| key.starts_with(safe))
    }) || words.iter().any(|word| word.starts_with("--config-env="))
}

/// Whether `name` with `args` runs code the line cannot be read for: an interpreter given
/// anything but a version or help flag, awk calling `system` or piping to a command, an awk
/// program from a file.
fn runs_code(name: &str, args: &[String]) -> bool {
    if INTERPRETERS.contains(&name) || name.starts_with("python") {
        return args.iter().any(|arg| !matches!(arg.as_str(), "--version" | "-V" | "-v" | "--help" | "-h"));
    }
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk") {
        return args.iter().any(|arg| arg.contains("system") || arg.contains('|') || arg == "-f" || arg.starts_with("--file"));
    }
    false
}

fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else { return false };
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// git's words without the options before its subcommand (`-C dir`, `-c key=value`, `-P`,
/// `--no-optional-locks`, ...): every word that starts with `-` there is one, and these take
/// the next word as their value.
fn git_without_global_options(words: Vec<String>) -> Vec<String> {
    const TAKE_VALUE: &[&str] = &["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix"];
    let mut kept = vec![words[0].clone()];
    let mut rest = words.into_iter().skip(1).peekable();
    while let Some(word) = rest.next_if(|word| word.starts_with('-')) {
        if TAKE_VALUE.contains(&word.as_str()) {
            rest.next();
        }
    }
    kept.extend(rest);
    kept
}

/// `simple` (a simple command as [`simple_commands`] gives it) with its options before its
/// operands, as getopt reads them: `rm -f ';' -r dir` removes as `rm -f -r ';' dir` does.
pub(crate) fn options_first(simple: &str) -> String {
    let mut words = simple.split(' ');
    let program = words.next().unwrap_or_default();
    let (mut options, mut operands) = (Vec::new(), Vec::new());
    let mut ended = false;
    for word in words {
        if word == "--" {
            ended = true;
        }
        if !ended && word.len() > 1 && word.starts_with('-') { options.push(word) } else { operands.push(word) }
    }
    std::iter::once(program).chain(options).chain(operands).collect::<Vec<_>>().join(" ")
}

/// The line's parts between separators (each with whether a `|` follows it), and the scripts
/// of its `$(...)` and backtick substitutions. Quotes are kept for [`words`].
fn split(line: &str) -> (Vec<(String, bool)>, Vec<String>) {
    let chars: Vec<char> = line.chars().collect();
    let (mut parts, mut substitutions, mut current) = (Vec::new(), Vec::new(), String::new());
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some('\''), '\'') => {
                quote = None;
                current.push(c);
            }
            (Some('\''), _) => current.push(c),
            // A line continuation is no character at all: `r\<newline>m` is `rm`.
            (_, '\\') if chars.get(i + 1) == Some(&'\n') => i += 1,
            (_, '\\') if i + 1 < chars.len() => {
                current.push(c);
                current.push(chars[i + 1]);
                i += 1;
            }
            (_, '$') if chars.get(i + 1) == Some(&'(') => {
                let (script, end) = balanced(&chars, i + 2);
                substitutions.push(script);
                current.push_str("$(...)");
                i = end;
            }
            (_, '`') => {
                let end = chars[i + 1..].iter().position(|&x| x == '`').map_or(chars.len(), |at| i + 1 + at);
                substitutions.push(chars[i + 1..end.min(chars.len())].iter().collect());
                current.push_str("$(...)");
                i = end;
            }
            (Some('"'), '"') => {
                quote = None;
                current.push(c);
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                current.push(c);
            }
            (None, ';' | '\n' | '&' | '|') => {
                let piped = c == '|' && chars.get(i + 1) != Some(&'|');
                if matches!(chars.get(i + 1), Some('&' | '|')) && chars[i + 1] == c {
                    i += 1;
                }
                parts.push((std::mem::take(&mut current), piped));
            }
            _ => current.push(c),
        }
        i += 1;
    }
    parts.push((current, false));
    (parts, substitutions)
}

/// The text inside `$(` ... `)` starting at `from`, and the index of its `)`.
fn balanced(chars: &[char], from: usize) -> (String, usize) {
    let mut depth = 1;
    for (at, &c) in chars.iter().enumerate().skip(from) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (chars[from..at].iter().collect(), at);
                }
            }
            _ => {}
        }
    }
    (chars[from.min(chars.len())..].iter().collect(), chars.len())
}

/// Which expansions a word asks of the shell outside quotes (a shell would rewrite it).
#[derive(Clone, Copy, Default)]
struct Expansions {
    /// `*`, `?` or `[` (save the command `[` itself).
    glob: bool,
    /// A `{a,b}` list.
    braces: bool,
    /// `$'...'` quoting, whose escapes spell any character.
    ansi_c: bool,
}

/// The words of one simple command, with quotes and backslashes removed, and what each asks
/// the shell to expand.
fn words(part: &str) -> (Vec<String>, Vec<Expansions>) {
    let (mut words, mut word, mut quote, mut started) = (Vec::new(), String::new(), None::<char>, false);
    let (mut all, mut expansions, mut open_brace) = (Vec::new(), Expansions::default(), false);
    let mut chars = part.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                started = true;
            }
            (Some(_), c) => word.push(c),
            (None, '$') if chars.peek() == Some(&'\'') => {
                expansions.ansi_c = true;
                word.push(c);
                started = true;
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    expansions.glob &= word != "[";
                    words.push(std::mem::take(&mut word));
                    all.push(std::mem::take(&mut expansions));
                }
                (started, open_brace) = (false, false);
            }
            (None, c) => {
                match c {
                    '*' | '?' | '[' => expansions.glob = true,
                    '{' => open_brace = true,
                    ',' if open_brace => expansions.braces = true,
                    _ => {}
                }
                word.push(c);
                started = true;
            }
        }
    }
    if started || !word.is_empty() {
        expansions.glob &= word != "[";
        words.push(word);
        all.push(expansions);
    }
    (words, all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(line: &str) -> (Vec<String>, bool) {
        simple_commands(line)
    }

    #[test]
    fn quotes_backslashes_and_wrappers_do_not_hide_the_command() {
        assert_eq!(read_all(r#"sh -c '"r"m -rf ~/.ssh'"#).0, vec!["rm -rf ~/.ssh", "sh -c \"r\"m -rf ~/.ssh"]);
        assert_eq!(read_all(r"r\m -rf /tmp/x").0, vec!["rm -rf /tmp/x"]);
        assert_eq!(read_all("sudo -E FOO=1 /bin/rm -rf build").0, vec!["rm -rf build"]);
        assert_eq!(read_all("git -C /workspace -c core.x=y reset --hard").0, vec!["git reset --hard"]);
        assert_eq!(read_all("cd /w && echo $(rm -rf ~) ; ls").0, vec!["rm -rf ~", "cd /w", "echo $(...)", "ls"]);
    }

    #[test]
    fn what_the_line_cannot_show_is_opaque() {
        assert!(read_all("R=rm; $R -rf ~/work").1);
        assert!(read_all("echo cm0gLXJmIH4= | base64 -d | sh").1);
        assert!(read_all("eval \"$CMD\"").1);
        assert!(read_all("bash ./cleanup.sh").1);
        assert!(!read_all("git status --porcelain && echo ok | tee out.txt").1);
        assert!(!read_all("bash").1);
        assert!(read_all("/bin/r? -rf /home/user").1);
        assert!(read_all("/bin/r[m] -rf /home/user").1);
        assert!(read_all("{rm,-rf,/home/user}").1);
        assert!(read_all("rm -$'r'f /home/user").1);
        assert!(read_all("bash -c \"{rm,-rf,/home/user}\"").1);
        assert!(!read_all("ls *.py && rm -f build/*.o").1);
        assert!(!read_all("[ -f x ] && git log --format='{%h,%s}'").1);
        assert!(read_all("echo -rf /home/user | xargs rm").1);
        assert!(read_all("git -c alias.tidy=clean tidy -fdx").1);
        assert!(read_all("git -c core.fsmonitor=/tmp/s status").1);
        assert!(!read_all("git -c user.name=x -c color.ui=never status").1);
        assert!(read_all("trap 'rm -rf $F' EXIT").1);
        assert!(read_all("npm run clean").1);
        assert!(read_all("find . -name '*.rs' -exec unlink {} ;").1);
        assert!(read_all("tar -cf /tmp/a.tar --remove-files src").1);
        assert!(!read_all("find . -name '*.rs' -print").1);
        assert!(read_all("python3 -c \"import os; os.system('rm -rf ~')\"").1);
        assert!(read_all("node -e 'require(\"fs\").rmSync(\"/w\", {recursive: true})'").1);
        assert!(read_all("awk 'BEGIN{system(\"ls\")}'").1);
        assert!(read_all("env -S 'rm -rf /w'").1);
        assert!(!read_all("node --version && python3 -V && awk '{print $1}' f").1);
    }

    #[test]
    fn continuations_git_options_and_permuted_options() {
        assert_eq!(read_all("r\\\nm -rf /w").0, vec!["rm -rf /w"]);
        assert_eq!(read_all("git -P --no-optional-locks clean -fdx").0, vec!["git clean -fdx"]);
        assert_eq!(read_all("git --config-env x=Y -C /w reset --hard").0, vec!["git reset --hard"]);
        assert_eq!(options_first("rm -f ; -r /w"), "rm -f -r ; /w");
        assert_eq!(options_first("rm -- -r /w"), "rm -- -r /w");
    }

    #[test]
    fn a_wrappers_own_arguments_are_not_the_command() {
        assert_eq!(read_all("timeout 5 rm -rf /w").0, vec!["rm -rf /w"]);
        assert_eq!(read_all("timeout -s KILL 5s git reset --hard").0, vec!["git reset --hard"]);
        assert_eq!(read_all("nice -n 5 rm -rf /w").0, vec!["rm -rf /w"]);
        assert_eq!(read_all("sudo -u user -- rm -rf /w").0, vec!["rm -rf /w"]);
        assert!(read_all("timeout 5 sh /tmp/s").1);
        assert!(read_all("nice -n 5 bash /tmp/s").1);
        assert!(read_all("sudo -u user sh /tmp/s").1);
    }

    #[test]
    fn a_shell_without_a_script_reads_one_from_stdin() {
        assert!(reads_script_from_stdin("sh"));
        assert!(reads_script_from_stdin("cat x | bash -s"));
        assert!(!reads_script_from_stdin("sh -c 'ls'"));
        assert!(!reads_script_from_stdin("bash ./cleanup.sh"));
        assert!(!reads_script_from_stdin("git status"));
    }
}
