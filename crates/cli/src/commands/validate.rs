//! `modlearn validate`: check a spec, run nothing.

use crate::cli::ValidateArgs;
use crate::exit::{CliError, SUCCESS};

pub fn run(args: ValidateArgs) -> Result<u8, CliError> {
    let loaded = super::load_spec(&args.spec)?;
    let scenarios = modlearn_spec::resolve_scenarios(&loaded.spec);
    let assertions: usize = scenarios.iter().map(|s| s.assertions.len()).sum();
    let max_score: usize = scenarios.iter().map(|s| s.max_score()).sum();
    let hidden = scenarios.iter().filter(|s| s.hidden).count();
    println!(
        "valid spec `{}`: {} scenario(s) ({hidden} hidden), {assertions} assertion(s), max score {max_score}",
        args.spec.display(),
        scenarios.len()
    );
    Ok(SUCCESS)
}
