//! The sandbox a machine lives in, made by bubblewrap: new user, mount, PID, network, IPC and UTS
//! namespaces, every capability dropped, no new privileges, a cleared environment; the host's
//! `/usr` read-only, a small synthetic `/etc`, and size-capped in-memory file systems for the
//! only writable places (the home directory, `/tmp`, the workspace). Nothing else of the host is
//! there. The helper is the sandbox's PID 1 (so nothing inside can kill it) and dies with modlearn.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::plan::{HOME, MachinePlan, SHM, is_nested_workspace};
use crate::stubs::{SCRIPTED_DIR, script, valid_program_name};
use crate::wire::{HELPER_ARGUMENT, UID, USER};

/// Bytes each writable file system may hold.
const WRITABLE_BYTES: u64 = 256 << 20;
/// Bytes `/dev/shm` may hold.
const SHM_BYTES: u64 = 1 << 20;

/// The host user a sandbox runs as when modlearn runs as root: one that owns nothing on the
/// host (root's files, `/dev`'s nodes) and that the kernel's per-user limits apply to, unlike
/// root. Inside, it is the machine's user all the same.
const HOST_UID_UNDER_ROOT: u32 = 1_900_000_000;

/// The descriptor the helper finds its socket on.
pub(crate) const SOCKET_FD: i32 = 3;
/// The descriptor the helper's executable is run from (no host path shows inside).
pub(crate) const EXECUTABLE_FD: i32 = 4;

/// The host-side files a sandbox mounts: its `/etc` and its scripted programs. Removed when the
/// machine is.
pub(crate) struct Scaffold {
    dir: tempfile::TempDir,
}

impl Scaffold {
    pub(crate) fn new(plan: &MachinePlan) -> io::Result<Scaffold> {
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(remove_abandoned);
        let prefix = format!("{SCAFFOLD_PREFIX}{}-", std::process::id());
        let dir = tempfile::Builder::new().prefix(&prefix).tempdir()?;
        let etc = dir.path().join("etc");
        std::fs::create_dir(&etc)?;
        let files = [
            (
                "passwd",
                format!(
                    "root:x:0:0:root:/root:/bin/sh\n{USER}:x:{UID}:{UID}:{USER}:{HOME}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
                ),
            ),
            ("group", format!("root:x:0:\n{USER}:x:{UID}:\nnogroup:x:65534:\n")),
            ("hostname", "modlearn\n".to_owned()),
            ("hosts", "127.0.0.1\tlocalhost\n127.0.1.1\tmodlearn\n::1\tlocalhost ip6-localhost ip6-loopback\n".to_owned()),
            ("nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\n".to_owned()),
            ("resolv.conf", String::new()),
            ("shells", "/bin/sh\n/bin/bash\n/usr/bin/sh\n/usr/bin/bash\n".to_owned()),
            ("timezone", "Etc/UTC\n".to_owned()),
        ];
        for (name, text) in files {
            std::fs::write(etc.join(name), text)?;
        }
        std::os::unix::fs::symlink("/usr/share/zoneinfo/Etc/UTC", etc.join("localtime"))?;
        std::os::unix::fs::symlink("../usr/lib/os-release", etc.join("os-release"))?;
        // Mount points for what the host lends read-only (Debian's alternatives: awk, which, ...).
        std::fs::create_dir(etc.join("alternatives"))?;
        std::fs::write(etc.join("ld.so.cache"), "")?;
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin)?;
        for program in &plan.programs {
            if !valid_program_name(&program.name) {
                return Err(io::Error::other(format!("`{}` cannot be a program's name", program.name)));
            }
            let path = bin.join(&program.name);
            std::fs::write(&path, script(program))?;
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
        Ok(Scaffold { dir })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Lets another host user (the sandbox's) read the scaffold, which only its maker could.
    pub(crate) fn lend(&self) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(self.dir.path(), std::fs::Permissions::from_mode(0o755))
    }
}

/// The start of a scaffold directory's name; the maker's pid follows.
const SCAFFOLD_PREFIX: &str = "modlearn-machine-";

/// Removes the scaffolds of modlearn processes that ended without removing theirs (killed), once
/// per process: only this user's, and only of makers that are gone.
fn remove_abandoned() {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(SCAFFOLD_PREFIX).and_then(|rest| rest.split('-').next()).and_then(|pid| pid.parse::<i32>().ok())
        else {
            continue;
        };
        // SAFETY: kill with signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone && entry.metadata().is_ok_and(|metadata| metadata.is_dir() && metadata.uid() == me) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The host user to start the sandbox as, when it is not modlearn's own (see
/// [`HOST_UID_UNDER_ROOT`]).
pub(crate) fn host_uid() -> Option<u32> {
    // SAFETY: geteuid has no preconditions.
    (unsafe { libc::geteuid() } == 0).then_some(HOST_UID_UNDER_ROOT)
}

/// bubblewrap, where the machine looks for it.
pub(crate) fn bubblewrap() -> Option<PathBuf> {
    ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"].iter().map(PathBuf::from).find(|path| path.is_file())
}

/// The bwrap command that starts the helper for a machine whose workspace is `workspace`.
pub(crate) fn command(bwrap: &Path, scaffold: &Scaffold, workspace: &str) -> Command {
    let mut command = Command::new(bwrap);
    let uid = UID.to_string();
    command.args(["--unshare-all", "--unshare-user", "--disable-userns", "--uid", &uid, "--gid", &uid, "--hostname", "modlearn"]);
    command.args(["--die-with-parent", "--new-session", "--as-pid-1", "--cap-drop", "ALL", "--clearenv"]);
    command.args(["--ro-bind", "/usr", "/usr"]);
    let tmpfs = |command: &mut Command, bytes: u64, perms: &str, path: &str| {
        command.args(["--size", &bytes.to_string(), "--perms", perms, "--tmpfs", path]);
    };
    // The host's own /usr/local stays out; the environment's scripted programs take its bin.
    tmpfs(&mut command, 1 << 20, "0755", "/usr/local");
    command.arg("--ro-bind").arg(scaffold.path("bin")).arg(SCRIPTED_DIR);
    command.args(["--remount-ro", "/usr/local"]);
    for (link, target) in [("/bin", "usr/bin"), ("/sbin", "usr/sbin"), ("/lib", "usr/lib"), ("/lib64", "usr/lib64")] {
        command.args(["--symlink", target, link]);
    }
    command.args(["--proc", "/proc", "--dev", "/dev"]);
    tmpfs(&mut command, SHM_BYTES, "1777", SHM);
    command.arg("--ro-bind").arg(scaffold.path("etc")).arg("/etc");
    for lent in ["/etc/alternatives", "/etc/ld.so.cache"] {
        if Path::new(lent).exists() {
            command.args(["--ro-bind", lent, lent]);
        }
    }
    command.args(["--dir", "/home"]);
    tmpfs(&mut command, WRITABLE_BYTES, "0755", HOME);
    tmpfs(&mut command, WRITABLE_BYTES, "1777", "/tmp");
    if !is_nested_workspace(workspace) {
        tmpfs(&mut command, WRITABLE_BYTES, "0755", workspace);
    }
    command.args(["--remount-ro", "/", "--chdir", "/"]);
    if std::env::var_os("MODLEARN_MACHINE_STDERR").is_some() {
        command.args(["--setenv", "MODLEARN_MACHINE_STDERR", "1"]);
    }
    command.arg(format!("/proc/self/fd/{EXECUTABLE_FD}")).arg(HELPER_ARGUMENT);
    command
}

/// What the machine tells a user whose host cannot start the sandbox.
pub(crate) fn how_to_enable(detail: &str) -> String {
    let detail = detail.trim();
    let detail = if detail.is_empty() { String::new() } else { format!(" ({detail})") };
    format!(
        "the candidate's machine could not start{detail}: modlearn runs a candidate's files and commands only inside a bubblewrap sandbox, never on the host. Install bubblewrap (`apt-get install bubblewrap`, or `bash scripts/bootstrap`) and allow unprivileged user namespaces (`sysctl -w kernel.unprivileged_userns_clone=1`; on Ubuntu also `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`)"
    )
}
