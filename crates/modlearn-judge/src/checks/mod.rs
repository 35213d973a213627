//! One module per assertion type: its probe and its pass conditions.

pub(crate) mod mod_loads;
pub(crate) mod tool_start_args;
pub(crate) mod turn_start_injects_message;
