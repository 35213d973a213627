//! A process's `/proc/PID/stat`, read from outside it: how the step watch tells a spinning
//! engine from a blocked one, and what `modlearn bench` and the examples count.

use std::time::Duration;

/// The fields of `/proc/PID/stat` modlearn reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessStat {
    /// `R` running or runnable, `S` asleep, ...
    pub state: char,
    /// The parent's process id.
    pub parent: u32,
    /// Page faults served without I/O (copy-on-write among them).
    pub minor_faults: u64,
    /// User and system CPU time, in clock ticks.
    cpu_ticks: u64,
}

impl ProcessStat {
    /// Process `pid`'s figures, or `None` once it is gone (or on a system without /proc).
    pub fn read(pid: u32) -> Option<ProcessStat> {
        ProcessStat::parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    fn parse(stat: &str) -> Option<ProcessStat> {
        // The command name is in parentheses and may hold spaces; the fields follow the last ')'.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let number = |index: usize| fields.get(index)?.parse::<u64>().ok();
        Some(ProcessStat {
            state: fields.first()?.chars().next()?,
            parent: u32::try_from(number(1)?).ok()?,
            minor_faults: number(7)?,
            cpu_ticks: number(11)? + number(12)?,
        })
    }

    /// User and system CPU time, all threads.
    pub fn cpu_time(&self) -> Duration {
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
        Duration::from_millis(self.cpu_ticks * 1000 / per_second)
    }
}

#[cfg(test)]
mod tests {
    use super::ProcessStat;

    #[test]
    fn fields_are_counted_from_the_last_parenthesis() {
        let stat = "4242 (a (b) c) S 17 4242 17 0 -1 4194560 389 0 0 0 7 3 0 0 20 0 2 0 96 0";
        let parsed = ProcessStat::parse(stat).unwrap();
        assert_eq!((parsed.state, parsed.parent, parsed.minor_faults, parsed.cpu_ticks), ('S', 17, 389, 10));
        assert_eq!(ProcessStat::parse("4242 (cut"), None);
    }

    #[test]
    fn this_process_can_be_read() {
        // The state is the main thread's, which may be waiting on this test's thread.
        let own = ProcessStat::read(std::process::id()).unwrap();
        assert!(matches!(own.state, 'R' | 'S'), "{own:?}");
        assert_eq!(own.parent, std::os::unix::process::parent_id());
        assert!(own.minor_faults > 0, "{own:?}");
    }
}
