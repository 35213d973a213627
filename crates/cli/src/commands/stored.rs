//! `modlearn report` and `modlearn guide`: render a stored run's files
//! again, running nothing (no engine, no model).

use modlearn_record::StoredRunError;

use std::path::Path;

use crate::cli::{GuideArgs, ReportArgs};
use crate::exit::{CliError, SUCCESS};

/// `modlearn report <RUN-DIR>`.
pub fn report(args: ReportArgs) -> Result<u8, CliError> {
    let written = modlearn_record::rerender_reports(&args.run_dir)?;
    print_written(&args.run_dir, &written, args.json);
    Ok(SUCCESS)
}

/// `modlearn guide <RUN-DIR>`.
pub fn guide(args: GuideArgs) -> Result<u8, CliError> {
    let written = modlearn_record::rewrite_guide(&args.run_dir)?;
    print_written(&args.run_dir, &written, args.json);
    Ok(SUCCESS)
}

fn print_written(run_dir: &Path, written: &[String], json: bool) {
    let paths: Vec<String> = written.iter().map(|file| run_dir.join(file).display().to_string()).collect();
    if json {
        println!("{}", serde_json::to_string_pretty(&paths).expect("paths serialize"));
        return;
    }
    for path in paths {
        println!("wrote {path}");
    }
}

/// A directory with `history.json` is a run, just not a finished one.
fn args_is_run(error: &StoredRunError) -> bool {
    matches!(error, StoredRunError::NotARunDir { path, .. } if path.join("history.json").is_file())
}

impl From<StoredRunError> for CliError {
    fn from(error: StoredRunError) -> CliError {
        let hint = match &error {
            StoredRunError::NotARunDir { reason, .. } if reason.contains("report.json") && args_is_run(&error) => {
                "a stopped run has no report.json yet: `modlearn run --resume <RUN-DIR>` finishes it, and `modlearn guide` works on it as it is"
            }
            StoredRunError::NotARunDir { .. } => "pass a directory written by `modlearn run` or `modlearn eval` (under reports/)",
            StoredRunError::Unreadable { .. } | StoredRunError::Corrupt { .. } => {
                "the run directory was changed after modlearn wrote it; run the evaluation again"
            }
            StoredRunError::Write(_) => {
                let StoredRunError::Write(error) = error else { unreachable!("matched above") };
                return error.into();
            }
        };
        CliError::usage(error.to_string()).hint(hint)
    }
}
