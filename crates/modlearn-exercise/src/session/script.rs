//! The script driver: plays a spec's `script` step by step. Turn boundaries are implicit: a turn
//! ends at the next `user` step or at the end of the script, and a turn a mod started with
//! `continue` ends at once (a script has no answers for it).

use super::{Action, SessionDriver, SessionView};

/// Plays a fixed list of actions.
#[derive(Clone, Debug)]
pub struct ScriptDriver {
    steps: Vec<Action>,
    position: usize,
}

impl ScriptDriver {
    /// A driver that plays `steps` in order.
    pub fn new(steps: Vec<Action>) -> ScriptDriver {
        ScriptDriver { steps, position: 0 }
    }
}

impl SessionDriver for ScriptDriver {
    fn next_action(&mut self, view: &SessionView<'_>) -> Action {
        match self.steps.get(self.position) {
            // The running turn (maybe a continuation) ends before the next user message.
            None | Some(Action::User(_)) if view.in_turn => Action::EndTurn,
            None => Action::End,
            Some(step) => {
                self.position += 1;
                step.clone()
            }
        }
    }
}
