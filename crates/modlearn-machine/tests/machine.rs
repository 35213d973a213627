//! A machine end to end: a real sandbox, real git and coreutils, the exec trace and the tree's
//! changes. This binary is its own helper (`harness = false`), as the `modlearn` binary is.

use modlearn_machine::protocol::{Call, MachineReply, MachineRequest, RunRequest};
use modlearn_machine::{ArgsMatch, Machine, MachinePlan, ScriptedAnswer, ScriptedProgram};
use modlearn_types::{EntryKind, FileChange, ProgramOrigin};

const EPOCH_MS: f64 = 1_767_225_600_000.0;

fn run(machine: &Machine, line: &str) -> (MachineReply, String) {
    run_with(machine, line, 5_000, b"")
}

fn run_with(machine: &Machine, line: &str, deadline_ms: u64, stdin: &[u8]) -> (MachineReply, String) {
    let request = RunRequest {
        argv: vec!["/bin/sh".into(), "-c".into(), line.into()],
        cwd: "/workspace".into(),
        env: vec![("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()), ("HOME".into(), "/home/user".into())],
        deadline_ms,
        via: "execSync".into(),
        line: line.into(),
    };
    let (reply, output) = machine.call(&Call { at: EPOCH_MS, request: MachineRequest::Run(request) }, stdin);
    (reply, String::from_utf8_lossy(&output).into_owned())
}

fn fs(machine: &Machine, request: MachineRequest, payload: &[u8]) -> (MachineReply, Vec<u8>) {
    machine.call(&Call { at: EPOCH_MS + 5_000.0, request }, payload)
}

fn exit_code(reply: &MachineReply) -> Option<i32> {
    match reply {
        MachineReply::Ran(outcome) => outcome.exit_code,
        other => panic!("not a command's reply: {other:?}"),
    }
}

fn git_state_is_real() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    let (reply, output) = run(&machine, "git rev-parse --abbrev-ref HEAD && git log --format=%an%x20%ad --date=unix");
    assert_eq!(exit_code(&reply), Some(0), "{reply:?} {output}");
    assert_eq!(output, "main\nuser 1767225600\n");
    let (reply, head) = fs(&machine, MachineRequest::ReadFile { path: "/workspace/.git/HEAD".into() }, &[]);
    assert!(matches!(reply, MachineReply::Bytes { .. }), "{reply:?}");
    assert_eq!(head, b"ref: refs/heads/main\n");
    let (_, date) = run(&machine, "date -u +%Y-%m-%d");
    assert_eq!(date, "2026-01-01\n", "the clock inside commands is the virtual one");
    let record = machine.end_scenario();
    let programs: Vec<Vec<String>> = record.commands.iter().flat_map(|command| command.programs.iter().map(|p| p.argv.clone())).collect();
    assert!(programs.contains(&vec!["git".into(), "rev-parse".into(), "--abbrev-ref".into(), "HEAD".into()]), "{programs:?}");
    assert!(record.changes.is_empty(), "{:?}", record.changes);
}

fn links_renames_and_deletions_are_seen_by_inode() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    let (reply, output) =
        run(&machine, "mkdir pkg && echo a > pkg/a && echo b > b && git add -A && git commit -qm two && ln -s /workspace /tmp/w");
    assert_eq!(exit_code(&reply), Some(0), "{output}");
    machine.end_scenario();
    machine.begin_scenario(&[]);
    let (reply, output) = run(&machine, "rm -f /tmp/w/b; mv /tmp/w/pkg /tmp/w/lib; mv /tmp/w/lib /tmp/gone; sed -i s/#/=/ README.md");
    assert_eq!(exit_code(&reply), Some(0), "{output}");
    let record = machine.end_scenario();
    // A move to another file system is a copy and a deletion, as the kernel makes it.
    assert_eq!(
        record.changes,
        [
            FileChange::Deleted { path: "/workspace/b".into(), entry: EntryKind::File },
            FileChange::Deleted { path: "/workspace/pkg".into(), entry: EntryKind::Dir },
            FileChange::Created { path: "/tmp/gone".into(), entry: EntryKind::Dir },
            FileChange::Created { path: "/tmp/gone/a".into(), entry: EntryKind::File },
            FileChange::Written { path: "/workspace/README.md".into() },
        ]
    );
    assert_eq!(record.written_files["/workspace/README.md"].text, "= workspace\n\nA small project.\n");
    let rm = record.commands[0].programs.iter().find(|program| program.path.ends_with("/rm")).expect("rm ran");
    assert_eq!(rm.argv, ["rm", "-f", "/tmp/w/b"]);
    machine.begin_scenario(&[]);
    run(&machine, "mv /tmp/gone /tmp/back");
    let record = machine.end_scenario();
    assert_eq!(record.changes, [FileChange::Renamed { from: "/tmp/gone".into(), to: "/tmp/back".into(), entry: EntryKind::Dir }]);
}

fn files_persist_across_scenarios_and_lock_files_conflict() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    let create =
        MachineRequest::WriteFile { path: "/home/user/.lock".into(), flags: libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, mode: 0o644 };
    machine.begin_scenario(&[]);
    assert_eq!(fs(&machine, create.clone(), b"1").0, MachineReply::Done);
    let record = machine.end_scenario();
    assert_eq!(record.changes, vec![FileChange::Created { path: "/home/user/.lock".into(), entry: EntryKind::File }]);
    machine.begin_scenario(&[]);
    assert_eq!(fs(&machine, create, b"1").0, MachineReply::Failed { code: "EEXIST".into(), syscall: "open".into() });
    let (reply, _) = fs(&machine, MachineRequest::Stat { path: "/home/user/.lock".into(), follow: true }, &[]);
    let MachineReply::Stat(stat) = reply else { panic!("{reply:?}") };
    assert_eq!((stat.mtime_ms, stat.uid), (EPOCH_MS + 5_000.0, 1000), "a mod's write is dated by its clock");
    assert!(machine.end_scenario().changes.is_empty());
}

fn scripted_programs_answer_and_the_rest_is_real() {
    let plan = MachinePlan {
        programs: vec![
            ScriptedProgram {
                name: "uv".into(),
                answers: vec![ScriptedAnswer {
                    matches: ArgsMatch::Args("pip install requests".into()),
                    stdout: "Installed requests\n".into(),
                    stderr: String::new(),
                    exit_code: 0,
                }],
            },
            ScriptedProgram {
                name: "git".into(),
                answers: vec![ScriptedAnswer {
                    matches: ArgsMatch::Regex(r"^git describe\b".into()),
                    stdout: "v1.2.3\n".into(),
                    stderr: String::new(),
                    exit_code: 0,
                }],
            },
        ],
        ..MachinePlan::default()
    };
    let machine = Machine::new(plan, EPOCH_MS);
    machine.begin_scenario(&[]);
    assert_eq!(run(&machine, "uv pip  install requests").1, "Installed requests\n");
    assert_eq!(run(&machine, "git describe --tags").1, "v1.2.3\n");
    assert_eq!(run(&machine, "git branch --show-current").1, "main\n");
    let (reply, output) = run(&machine, "uv pip list");
    assert_eq!((exit_code(&reply), output.as_str()), (Some(127), "uv: not found\n"));
    let record = machine.end_scenario();
    let scripted: Vec<Option<&str>> = record.commands[0].programs.iter().map(|program| program.scripted.as_deref()).collect();
    assert_eq!(scripted, [None, Some("uv")], "{:?}", record.commands[0].programs);
}

fn deadlines_and_leftover_processes_end_in_the_record() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    let (reply, _) = run_with(&machine, "sleep 5", 300, b"");
    let MachineReply::Ran(outcome) = reply else { panic!() };
    assert!(outcome.timed_out && outcome.signal.as_deref() == Some("SIGKILL"), "{outcome:?}");
    let (reply, output) = run(&machine, "(sleep 0.2; echo late > /tmp/late) >/dev/null 2>&1 & echo started");
    assert_eq!((exit_code(&reply), output.as_str()), (Some(0), "started\n"));
    let (reply, _) = run_with(&machine, "sleep 30 >/dev/null 2>&1 & echo started", 300, b"");
    assert_eq!(exit_code(&reply), Some(0), "it exited; what it left ran on to the deadline");
    let (reply, output) = run_with(&machine, "cat", 2_000, b"fed through stdin");
    assert_eq!((exit_code(&reply), output.as_str()), (Some(0), "fed through stdin"));
    let (reply, output) = run(&machine, "kill -9 1; echo alive");
    assert_eq!((exit_code(&reply), output.as_str()), (Some(0), "alive\n"), "the helper cannot be killed from inside");
    let record = machine.end_scenario();
    assert!(record.commands[0].incomplete.as_deref().unwrap().contains("stopped at its deadline"), "{:?}", record.commands[0]);
    assert_eq!(record.commands[1].incomplete, None, "what it left in the background ran to its end");
    assert!(record.changes.contains(&FileChange::Created { path: "/tmp/late".into(), entry: EntryKind::File }), "{:?}", record.changes);
    assert!(record.commands[2].incomplete.as_deref().unwrap().contains("left running was stopped"), "{:?}", record.commands[2]);
}

fn nothing_reaches_the_host() {
    let canary = tempfile::Builder::new().prefix("modlearn-canary-").tempdir_in("/tmp").unwrap();
    std::fs::write(canary.path().join("keep"), "x").unwrap();
    // SAFETY: single-threaded test main; the variable is read by nothing but the check below.
    unsafe { std::env::set_var("MODLEARN_SECRET_CANARY", "s3cret") };
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    let line = format!(
        "rm -rf /tmp/* {} 2>/dev/null; env; ls /root /mnt /srv 2>&1; getent hosts example.com || echo offline",
        canary.path().display()
    );
    let (_, output) = run(&machine, &line);
    assert!(canary.path().join("keep").exists(), "a host file was removed");
    assert!(!output.contains("s3cret"), "{output}");
    assert!(output.contains("offline"), "{output}");
    let (reply, _) =
        fs(&machine, MachineRequest::WriteFile { path: "/usr/x".into(), flags: libc::O_WRONLY | libc::O_CREAT, mode: 0o644 }, b"");
    assert_eq!(reply, MachineReply::Failed { code: "EROFS".into(), syscall: "open".into() });
    machine.end_scenario();
}

/// What a hostile command tries first: leaving the trace, reading the helper's files, holding
/// the helper on a pipe, changing the host's devices, flooding the machine.
fn a_hostile_command_is_contained() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    // clone(CLONE_UNTRACED | SIGCHLD) and pidfd_getfd(0, 3, 0): refused before they act.
    let python = "import ctypes; c = ctypes.CDLL(None, use_errno=True); \
        print(c.syscall(56, 0x00800000 | 17, 0, 0, 0, 0), ctypes.get_errno(), c.syscall(438, 0, 3, 0), ctypes.get_errno())";
    let (reply, output) = run(&machine, &format!("python3 -c '{python}'"));
    assert_eq!((exit_code(&reply), output.as_str()), (Some(0), "-1 1 -1 1\n"), "{reply:?}");
    let (reply, output) = run(&machine, "chmod 666 /dev/full 2>&1; mkfifo /tmp/fifo");
    assert!(output.contains("Operation not permitted") || output.contains("Read-only"), "{reply:?} {output}");
    assert_eq!(std::fs::metadata("/dev/full").map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777).ok(), Some(0o666));
    let (reply, _) = fs(&machine, MachineRequest::ReadFile { path: "/tmp/fifo".into() }, &[]);
    assert_eq!(reply, MachineReply::Failed { code: "EAGAIN".into(), syscall: "open".into() }, "a FIFO would hold the helper");
    // A copy is named by its bytes, whatever it is called; a changed copy is no program of the machine's.
    let (reply, output) =
        run(&machine, "cp /usr/bin/git /tmp/true && /tmp/true --version >/dev/null && cp /usr/bin/true /tmp/t && echo >> /tmp/t && /tmp/t");
    assert_eq!(exit_code(&reply), Some(0), "{output}");
    let (reply, output) = run_with(&machine, "f() { f | f & }; f", 1_500, b"");
    assert!(matches!(reply, MachineReply::Ran(_)), "{reply:?} {output}");
    let (reply, output) = run(&machine, "echo after");
    assert_eq!((exit_code(&reply), output.as_str()), (Some(0), "after\n"), "the machine outlives a fork bomb");
    let (_, output) = run(&machine, "mkdir /workspace/shut && chmod 000 /workspace/shut; echo done");
    assert_eq!(output, "done\n");
    let record = machine.end_scenario();
    let programs: Vec<_> = record.commands[2].programs.iter().map(|program| (program.argv[0].as_str(), &program.origin)).collect();
    assert!(programs.contains(&("/tmp/true", &ProgramOrigin::CopyOf { program: "/usr/bin/git".into() })), "{programs:?}");
    assert!(programs.contains(&("/tmp/t", &ProgramOrigin::Made)), "{programs:?}");
    assert!(record.commands[3].incomplete.is_some(), "{:?}", record.commands[3].incomplete);
    assert!(record.unseen.as_deref().is_some_and(|why| why.contains("/workspace/shut")), "{:?}", record.unseen);
}

/// Files past the machine's cap stop the command that makes them, and the mod's own calls fail
/// as on a full file system.
fn a_flood_of_files_is_stopped() {
    let machine = Machine::new(MachinePlan::default(), EPOCH_MS);
    machine.begin_scenario(&[]);
    let flood = "import os\nfor i in range(200000): open(f'/tmp/f{i}', 'w').close()";
    let (reply, output) = run_with(&machine, &format!("python3 -c \"{flood}\""), 60_000, b"");
    assert!(matches!(reply, MachineReply::Ran(_)), "{reply:?} {output}");
    let (reply, _) =
        fs(&machine, MachineRequest::WriteFile { path: "/tmp/one-more".into(), flags: libc::O_WRONLY | libc::O_CREAT, mode: 0o644 }, b"");
    assert_eq!(reply, MachineReply::Failed { code: "ENOSPC".into(), syscall: "open".into() });
    let record = machine.end_scenario();
    let why = record.commands[0].incomplete.as_deref().unwrap_or_default();
    assert!(why.contains("files and directories") || why.contains("No space"), "{why:?} {output}");
}

fn main() {
    modlearn_machine::testing::main(&[
        ("git_state_is_real", git_state_is_real),
        ("links_renames_and_deletions_are_seen_by_inode", links_renames_and_deletions_are_seen_by_inode),
        ("files_persist_across_scenarios_and_lock_files_conflict", files_persist_across_scenarios_and_lock_files_conflict),
        ("scripted_programs_answer_and_the_rest_is_real", scripted_programs_answer_and_the_rest_is_real),
        ("deadlines_and_leftover_processes_end_in_the_record", deadlines_and_leftover_processes_end_in_the_record),
        ("nothing_reaches_the_host", nothing_reaches_the_host),
        ("a_hostile_command_is_contained", a_hostile_command_is_contained),
        ("a_flood_of_files_is_stopped", a_flood_of_files_is_stopped),
    ]);
}
