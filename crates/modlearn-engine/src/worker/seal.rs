//! Defence in depth behind the JavaScript sandbox: kernel limits and a
//! system-call filter for an engine process. The sandbox already gives mod
//! code no way to the host; these make sure that a bug in it (or in
//! QuickJS) still finds no file to open, no socket to connect and no
//! program to start.

use std::io;

/// Room in the address space beyond what the process has mapped at fork
/// time and the heap cap: thread stacks, malloc arenas, WebAssembly memory.
const ADDRESS_SPACE_SLACK: u64 = 512 << 20;

/// CPU seconds an engine process may use in all: far above any honest
/// candidate's evaluation, it only stops a process nothing else could.
const CPU_SECONDS: u64 = 600;

/// Kernel limits: no core dumps, no files written, few descriptors, a bounded
/// address space (so WebAssembly memory and native allocations count against
/// the cap too) and bounded CPU time. Also no new privileges, ever.
pub(crate) fn seal_process(memory_limit: usize) -> io::Result<()> {
    set_limit(libc::RLIMIT_CORE, 0)?;
    set_limit(libc::RLIMIT_FSIZE, 0)?;
    set_limit(libc::RLIMIT_NOFILE, 16)?;
    set_limit(libc::RLIMIT_CPU, CPU_SECONDS)?;
    let mapped = mapped_bytes()?;
    set_limit(libc::RLIMIT_AS, mapped + memory_limit as u64 * 2 + ADDRESS_SPACE_SLACK)?;
    // SAFETY: prctl with these arguments only changes this process's flags.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0
            || libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
    // SAFETY: limit is a valid rlimit; lowering a limit needs no privilege.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The process's mapped address space now (VmSize), in bytes.
fn mapped_bytes() -> io::Result<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm")?;
    let pages: u64 = statm
        .split_whitespace()
        .next()
        .and_then(|field| field.parse().ok())
        .ok_or_else(|| io::Error::other("unreadable /proc/self/statm"))?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    Ok(pages * page)
}

// Classic BPF, as seccomp reads it.
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const JSET_K: u16 = 0x45;
const RET_K: u16 = 0x06;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
const OFFSET_ARG0: u32 = 16;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// System calls an engine never needs and that reach the host: opening or
/// changing files, sockets, new programs and processes, other processes'
/// memory, privileges and namespaces, kernel interfaces that bypass filters.
#[rustfmt::skip]
const DENIED: &[libc::c_long] = &[
    libc::SYS_openat, libc::SYS_openat2, libc::SYS_open_by_handle_at, libc::SYS_name_to_handle_at,
    libc::SYS_execve, libc::SYS_execveat, libc::SYS_ptrace, libc::SYS_process_vm_readv, libc::SYS_process_vm_writev,
    libc::SYS_socket, libc::SYS_socketpair, libc::SYS_connect, libc::SYS_bind, libc::SYS_listen, libc::SYS_accept,
    libc::SYS_accept4, libc::SYS_unlinkat, libc::SYS_renameat, libc::SYS_renameat2, libc::SYS_mkdirat,
    libc::SYS_linkat, libc::SYS_symlinkat, libc::SYS_fchmodat, libc::SYS_fchownat, libc::SYS_truncate,
    libc::SYS_mknodat, libc::SYS_mount, libc::SYS_umount2, libc::SYS_pivot_root, libc::SYS_chroot, libc::SYS_kill,
    libc::SYS_setuid, libc::SYS_setgid, libc::SYS_setreuid, libc::SYS_setregid, libc::SYS_setresuid,
    libc::SYS_setresgid, libc::SYS_setgroups, libc::SYS_unshare, libc::SYS_setns, libc::SYS_bpf,
    libc::SYS_perf_event_open, libc::SYS_userfaultfd, libc::SYS_io_uring_setup, libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register, libc::SYS_keyctl, libc::SYS_add_key, libc::SYS_request_key, libc::SYS_personality,
    libc::SYS_acct, libc::SYS_swapon, libc::SYS_swapoff, libc::SYS_reboot, libc::SYS_init_module,
    libc::SYS_finit_module, libc::SYS_delete_module, libc::SYS_kexec_load, libc::SYS_quotactl,
    #[cfg(target_arch = "x86_64")] libc::SYS_open,
    #[cfg(target_arch = "x86_64")] libc::SYS_creat,
    #[cfg(target_arch = "x86_64")] libc::SYS_fork,
    #[cfg(target_arch = "x86_64")] libc::SYS_vfork,
    #[cfg(target_arch = "x86_64")] libc::SYS_unlink,
    #[cfg(target_arch = "x86_64")] libc::SYS_rename,
    #[cfg(target_arch = "x86_64")] libc::SYS_mkdir,
    #[cfg(target_arch = "x86_64")] libc::SYS_rmdir,
    #[cfg(target_arch = "x86_64")] libc::SYS_link,
    #[cfg(target_arch = "x86_64")] libc::SYS_symlink,
    #[cfg(target_arch = "x86_64")] libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")] libc::SYS_chown,
    #[cfg(target_arch = "x86_64")] libc::SYS_lchown,
    #[cfg(target_arch = "x86_64")] libc::SYS_mknod,
    #[cfg(target_arch = "x86_64")] libc::SYS_uselib,
];

fn statement(code: u16, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt: 0, jf: 0, k }
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// The filter: a foreign architecture kills the process; every denied call
/// fails with `EPERM`; `clone3` says `ENOSYS` (so threads fall back to
/// `clone`); `clone` is allowed only for threads; everything else is allowed.
fn program() -> Vec<libc::sock_filter> {
    let eperm = RET_ERRNO | libc::EPERM as u32;
    let mut filter = vec![
        statement(LD_W_ABS, OFFSET_ARCH),
        jump(JEQ_K, AUDIT_ARCH, 1, 0),
        statement(RET_K, RET_KILL_PROCESS),
        statement(LD_W_ABS, OFFSET_NR),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        // The x32 ABI numbers would slip past the comparisons below.
        filter.push(jump(JGE_K, 0x4000_0000, 0, 1));
        filter.push(statement(RET_K, eperm));
    }
    for &call in DENIED {
        filter.push(jump(JEQ_K, call as u32, 0, 1));
        filter.push(statement(RET_K, eperm));
    }
    filter.push(jump(JEQ_K, libc::SYS_clone3 as u32, 0, 1));
    filter.push(statement(RET_K, RET_ERRNO | libc::ENOSYS as u32));
    filter.push(jump(JEQ_K, libc::SYS_clone as u32, 0, 3));
    filter.push(statement(LD_W_ABS, OFFSET_ARG0));
    filter.push(jump(JSET_K, libc::CLONE_THREAD as u32, 1, 0));
    filter.push(statement(RET_K, eperm));
    filter.push(statement(RET_K, RET_ALLOW));
    filter
}

/// Installs the filter for every thread of the process.
pub(crate) fn forbid_host_syscalls() -> io::Result<()> {
    let filter = program();
    let program = libc::sock_fprog { len: filter.len() as u16, filter: filter.as_ptr() as *mut libc::sock_filter };
    const SECCOMP_SET_MODE_FILTER: libc::c_long = 1;
    const SECCOMP_FILTER_FLAG_TSYNC: libc::c_long = 1;
    // SAFETY: program points at `filter`, which lives through the call; the kernel copies it.
    let status = unsafe {
        libc::syscall(libc::SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program as *const libc::sock_fprog)
    };
    if status != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
