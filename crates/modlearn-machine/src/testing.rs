//! A `main` for test binaries whose tests need machines: the binary must be the sandbox's
//! helper, so such tests run with `harness = false` and this instead of libtest. It takes a
//! name filter as its first free argument, as libtest does, runs each test (a panic fails it and
//! the rest still run) and exits non-zero when any failed.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a test harness reports on the terminal")]

/// Serves as a machine's helper when started as one; else runs `tests` (name, function) and exits.
pub fn main(tests: &[(&str, fn())]) -> ! {
    crate::serve_if_helper();
    crate::set_helper_executable(std::env::current_exe().expect("the test binary's own path"));
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let (mut passed, mut failed) = (Vec::new(), Vec::new());
    for (name, test) in tests {
        if filter.as_deref().is_some_and(|filter| !name.contains(filter)) {
            continue;
        }
        match std::panic::catch_unwind(test) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed.push(*name);
            }
            Err(_) => {
                println!("test {name} ... FAILED");
                failed.push(*name);
            }
        }
    }
    let verdict = if failed.is_empty() { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {} passed; {} failed", passed.len(), failed.len());
    if !failed.is_empty() {
        eprintln!("failures:\n    {}", failed.join("\n    "));
        std::process::exit(101);
    }
    std::process::exit(0);
}
