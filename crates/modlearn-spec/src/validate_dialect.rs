//! Assertions a dialect's host has no equivalent for: refused at validation, so a spec never
//! judges a Pi extension on behaviour Pi cannot have (README, "One vocabulary, three hosts").

use modlearn_types::Dialect;

use crate::assertion::Assertion;

/// Why `assertion` cannot be judged for `dialect`, or `None` when it maps.
pub(super) fn unmapped(dialect: Dialect, assertion: &Assertion) -> Option<String> {
    if dialect != Dialect::Pi {
        return None;
    }
    let why = match assertion {
        Assertion::PermissionDecides(_) => {
            "Pi has no permission overlays; judge a gate with `tool_start_blocks` (a `tool_call` handler returning `{ block: true }`)"
        }
        Assertion::RunsUnderProfile(_) => "capability profiles are Letta's surfaces; Pi runs every extension with the whole API",
        Assertion::TurnEndContinues(_) => {
            "Pi's `turn_end` is observe-only: an extension continues with `pi.sendUserMessage`, which no assertion judges yet"
        }
        Assertion::TurnStartCancels(cancels) if cancels.reason_contains.is_some() => {
            "Pi's `input` handler cancels with `{ action: \"handled\" }`, which carries no reason: drop `reasonContains`"
        }
        Assertion::DisposesCleanly(disposes) if disposes.require_own_cleanup == Some(true) => {
            "Pi has no way to unregister a handler or a tool (session_shutdown is its only cleanup hook): drop `requireOwnCleanup`"
        }
        _ => return None,
    };
    Some(format!("`{}` does not map to the `pi` dialect: {why}", assertion.type_name()))
}
