//! `modlearn bench`: evaluation throughput and latency.

use crate::cli::BenchArgs;
use crate::exit::{CliError, SUCCESS};

pub fn run(args: BenchArgs) -> Result<u8, CliError> {
    let _ = args;
    Ok(SUCCESS)
}
