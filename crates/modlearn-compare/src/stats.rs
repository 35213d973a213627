//! The statistics of a comparison: pass@k, McNemar's exact test and a
//! paired (cluster) bootstrap. Pure functions; the bootstrap's random
//! numbers come from a seeded generator so every output is reproducible.

/// The unbiased pass@k estimator over `n` candidates drawn of which `c`
/// pass: `1 - C(n-c, k) / C(n, k)`, the chance that `k` candidates drawn
/// without replacement include a passing one.
///
/// When fewer than `k` candidates were drawn (`--candidates` below k, or
/// the budget ran out mid-round) the estimate uses what is there:
/// 1 if any passed, 0 if none did.
pub fn pass_at_k(n: usize, c: usize, k: usize) -> f64 {
    let c = c.min(n);
    if c == 0 || k == 0 {
        return 0.0;
    }
    if n - c < k {
        return 1.0;
    }
    // The product form avoids the huge binomials of the ratio.
    let failing_only: f64 = ((n - c + 1)..=n).map(|i| 1.0 - k as f64 / i as f64).product();
    1.0 - failing_only
}

/// Two-sided exact McNemar test: with `b` items only the first model passes
/// and `c` only the second passes, the p-value of "either is as likely"
/// (a binomial test of `min(b, c)` in `b + c` at one half). 1 with no
/// discordant items.
pub fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let low = b.min(c);
    // Terms in log space: 0.5^n underflows for large n.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = 0.0;
    for i in 0..=low {
        tail += log_term.exp();
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
    }
    (2.0 * tail).min(1.0)
}

/// One cluster of paired items (the checks of one spec and repeat): how
/// many the first model passed, how many the second passed, how many there
/// are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairedCluster {
    /// Items the first model passed.
    pub first: usize,
    /// Items the second model passed.
    pub second: usize,
    /// Items in the cluster.
    pub items: usize,
}

/// A confidence interval of a pass-rate difference (first minus second).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DifferenceInterval {
    /// The observed difference.
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// The paired bootstrap percentile interval (`level`, e.g. 0.95) of the
/// pass-rate difference, resampling whole clusters: checks of one
/// candidate are not independent, specs and repeats are. `None` with no
/// items or fewer than two clusters (one cluster says nothing about how
/// the difference varies).
pub fn paired_bootstrap(clusters: &[PairedCluster], resamples: usize, level: f64, seed: u64) -> Option<DifferenceInterval> {
    if clusters.len() < 2 {
        return None;
    }
    let difference = |picked: &mut dyn Iterator<Item = &PairedCluster>| {
        let (mut first, mut second, mut items) = (0usize, 0usize, 0usize);
        for cluster in picked {
            first += cluster.first;
            second += cluster.second;
            items += cluster.items;
        }
        (items > 0).then(|| (first as f64 - second as f64) / items as f64)
    };
    let estimate = difference(&mut clusters.iter())?;
    let mut rng = SplitMix64::new(seed);
    let mut differences: Vec<f64> = (0..resamples.max(1))
        .filter_map(|_| {
            let mut picked = (0..clusters.len()).map(|_| &clusters[rng.below(clusters.len())]);
            difference(&mut picked)
        })
        .collect();
    differences.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        let index = ((differences.len() - 1) as f64 * q).round() as usize;
        differences[index]
    };
    let tail = (1.0 - level) / 2.0;
    Some(DifferenceInterval { estimate, low: quantile(tail), high: quantile(1.0 - tail) })
}

/// SplitMix64: tiny, fast, and fixed forever, so a seed gives the same
/// interval on every machine and every version.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is below 2^-32 for any n used here).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn pass_at_k_matches_the_binomial_ratio() {
        // n=10, c=3, k=1: 3/10.
        assert!(close(pass_at_k(10, 3, 1), 0.3));
        // n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252.
        assert!(close(pass_at_k(10, 3, 5), 1.0 - 21.0 / 252.0));
        // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10.
        assert!(close(pass_at_k(5, 2, 2), 0.7));
        assert!(close(pass_at_k(4, 0, 2), 0.0));
        assert!(close(pass_at_k(4, 4, 2), 1.0));
        // Too few failing candidates to fill k: a passing one is always drawn.
        assert!(close(pass_at_k(4, 3, 2), 1.0));
    }

    #[test]
    fn pass_at_k_with_fewer_than_k_drawn_uses_what_is_there() {
        assert!(close(pass_at_k(1, 1, 4), 1.0));
        assert!(close(pass_at_k(2, 0, 4), 0.0));
        assert!(close(pass_at_k(0, 0, 1), 0.0));
    }

    #[test]
    fn mcnemar_exact_matches_the_binomial_test() {
        // Six discordant pairs all one way: 2 * 0.5^6.
        assert!(close(mcnemar_exact(6, 0), 0.03125));
        assert!(close(mcnemar_exact(0, 6), 0.03125));
        // b=10, c=2: 2 * (1 + 12 + 66) / 4096.
        assert!(close(mcnemar_exact(10, 2), 2.0 * 79.0 / 4096.0));
        // Balanced and empty: no evidence at all.
        assert!(close(mcnemar_exact(5, 5), 1.0));
        assert!(close(mcnemar_exact(0, 0), 1.0));
        // b=3, c=1: 2 * (1 + 4) / 16 = 0.625.
        assert!(close(mcnemar_exact(3, 1), 0.625));
    }

    #[test]
    fn mcnemar_exact_survives_large_counts() {
        let p = mcnemar_exact(2000, 1800);
        assert!(p > 0.0 && p < 0.01, "{p}");
        assert!(close(mcnemar_exact(1900, 1900), 1.0));
    }

    #[test]
    fn bootstrap_of_identical_clusters_is_a_point() {
        let clusters = vec![PairedCluster { first: 11, second: 9, items: 11 }; 4];
        let interval = paired_bootstrap(&clusters, 500, 0.95, 7).unwrap();
        assert!(close(interval.estimate, 2.0 / 11.0));
        assert!(close(interval.low, 2.0 / 11.0) && close(interval.high, 2.0 / 11.0));
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_estimate() {
        let clusters = vec![
            PairedCluster { first: 10, second: 9, items: 11 },
            PairedCluster { first: 8, second: 9, items: 11 },
            PairedCluster { first: 11, second: 7, items: 11 },
            PairedCluster { first: 9, second: 9, items: 11 },
        ];
        let a = paired_bootstrap(&clusters, 2000, 0.95, 42).unwrap();
        let b = paired_bootstrap(&clusters, 2000, 0.95, 42).unwrap();
        assert_eq!(a, b);
        assert!(close(a.estimate, 4.0 / 44.0));
        assert!(a.low <= a.estimate && a.estimate <= a.high);
        // Clusters disagree in sign, so the interval spans zero.
        assert!(a.low < 0.0 && a.high > 0.0, "{a:?}");
        // The extremes of any resample: all clusters the worst, all the best.
        assert!(a.low >= -1.0 / 11.0 - 1e-9 && a.high <= 4.0 / 11.0 + 1e-9);
    }

    #[test]
    fn bootstrap_without_items_or_with_one_cluster_has_no_interval() {
        assert!(paired_bootstrap(&[], 100, 0.95, 1).is_none());
        let empty = PairedCluster { first: 0, second: 0, items: 0 };
        assert!(paired_bootstrap(&[empty, empty], 100, 0.95, 1).is_none());
        assert!(paired_bootstrap(&[PairedCluster { first: 3, second: 1, items: 4 }], 100, 0.95, 1).is_none());
    }

    #[test]
    fn splitmix_is_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
    }
}
