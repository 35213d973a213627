//! The system calls a command's processes may not make, enforced by the kernel for every process
//! a command starts and everything they start (a seccomp filter is inherited and can never be
//! lifted): the ones that would take a process out of the exec trace or reach into another
//! process. Everything else a program does is left as it is on any machine.
//!
//! - `clone` with `CLONE_UNTRACED` makes a process the tracer is never told of: refused (`EPERM`).
//! - `clone3` passes its flags in memory a filter cannot read: it answers `ENOSYS`, as on a kernel
//!   without it, and C libraries then use `clone`.
//! - `ptrace`, `pidfd_getfd`, `process_vm_readv`/`writev`: another process's memory and
//!   descriptors (the helper's among them) stay out of reach (`EPERM`).
//! - `io_uring_setup`: io_uring's requests bypass system call filters (`EPERM`, as container
//!   runtimes answer).
//!
//! A system call of another architecture (a 32-bit one) kills the process: its numbers are not
//! these.

use std::collections::BTreeMap;

use seccompiler::{BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch};

/// The bit x32 system call numbers carry (where a kernel has that ABI).
const X32: i64 = 0x4000_0000;
/// x32's own numbers for calls whose x86-64 number it does not share.
const X32_PTRACE: i64 = X32 | 521;
const X32_PROCESS_VM_READV: i64 = X32 | 539;
const X32_PROCESS_VM_WRITEV: i64 = X32 | 540;

/// The two filters a command's processes run under, compiled when the helper starts (a forked
/// child installs them without allocating).
pub(crate) struct Filters {
    refused: BpfProgram,
    missing: BpfProgram,
}

impl Filters {
    pub(crate) fn new() -> Result<Filters, String> {
        let arch = TargetArch::x86_64;
        let untraced = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(libc::CLONE_UNTRACED as u64),
            libc::CLONE_UNTRACED as u64,
        )
        .map_err(|error| error.to_string())?;
        let untraced = SeccompRule::new(vec![untraced]).map_err(|error| error.to_string())?;
        let mut refused: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        refused.insert(libc::SYS_clone, vec![untraced.clone()]);
        refused.insert(X32 | libc::SYS_clone, vec![untraced]);
        for call in [
            libc::SYS_ptrace,
            libc::SYS_pidfd_getfd,
            libc::SYS_process_vm_readv,
            libc::SYS_process_vm_writev,
            libc::SYS_io_uring_setup,
            X32_PTRACE,
            X32 | libc::SYS_pidfd_getfd,
            X32_PROCESS_VM_READV,
            X32_PROCESS_VM_WRITEV,
            X32 | libc::SYS_io_uring_setup,
        ] {
            refused.insert(call, Vec::new());
        }
        let missing: BTreeMap<i64, Vec<SeccompRule>> =
            [libc::SYS_clone3, X32 | libc::SYS_clone3].into_iter().map(|call| (call, Vec::new())).collect();
        let compile = |rules, errno: i32| -> Result<BpfProgram, String> {
            let filter = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(errno as u32), arch)
                .map_err(|error| error.to_string())?;
            filter.try_into().map_err(|error: seccompiler::BackendError| error.to_string())
        };
        Ok(Filters { refused: compile(refused, libc::EPERM)?, missing: compile(missing, libc::ENOSYS)? })
    }

    /// Installs both on the calling process (with no new privileges, which seccomp asks for).
    /// Only what was made before a fork is touched, so a forked child may call it.
    pub(crate) fn install(&self) -> bool {
        seccompiler::apply_filter(&self.refused).is_ok() && seccompiler::apply_filter(&self.missing).is_ok()
    }
}
