//! Heuristics: estimates of the cost still to pay, used to order the search.

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};

/// The shape of a heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum HeuristicKind {
    /// Octile distance over x/z in [`MoveCosts`] units (`straight` per side step, `diagonal`
    /// per diagonal step; Manhattan when diagonals are off) plus `ascend` per block the goal is
    /// above and `descend` per block it is below. Admissible and consistent for the walking
    /// rules, so routes are optimal. The default.
    ///
    /// For fliers and swimmers, the 3D octile distance: with the axis distances sorted
    /// `a <= b <= c`, `a` corner steps, `b - a` edge steps and `c - b` face steps, the cost
    /// of the cheapest route through empty space (see [`Estimator`] for costs that are not
    /// ordered like 1, sqrt 2, sqrt 3). Admissible and consistent.
    #[default]
    Octile,
    /// The source article's `straight * Manhattan(x, z) + height_weight * |dy|`. Fast, but
    /// with diagonals it overestimates (a diagonal step costs less than two side steps), so
    /// routes may cost more than optimal, with no fixed bound.
    Manhattan {
        /// The cost charged per block of height difference.
        height_weight: u32,
    },
    /// `straight * sqrt(dx^2 + dz^2)` plus the octile heuristic's height term. Admissible
    /// when `diagonal >= straight * sqrt 2` (it is not for the default 10 / 14, which
    /// overestimates by under 1%), and less informed than octile.
    /// For fliers and swimmers, `straight * sqrt(dx^2 + dy^2 + dz^2)`, admissible when also
    /// `corner >= straight * sqrt 3`.
    Euclidean,
    /// Always 0: Dijkstra's algorithm. Optimal, and explores the most.
    Zero,
}

/// A heuristic: a [`HeuristicKind`] and a weight `w >= 1` (weighted A*). With an admissible
/// kind, a route found costs at most `w` times the optimal cost.
///
/// ```
/// use voxnav::engine::{Heuristic, HeuristicKind};
/// let fast = Heuristic::new(HeuristicKind::Octile).with_weight(1.5)?;
/// assert_eq!(fast.weight(), 1.5);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Heuristic {
    kind: HeuristicKind,
    weight: f64,
}

impl Default for Heuristic {
    fn default() -> Self {
        Self::new(HeuristicKind::Octile)
    }
}

impl Heuristic {
    /// A heuristic of the given kind with weight 1.
    #[must_use]
    pub const fn new(kind: HeuristicKind) -> Self {
        Self { kind, weight: 1.0 }
    }

    /// Sets the weight. Any finite weight is accepted: estimates saturate at
    /// [`MAX_ESTIMATE`], so even a huge weight cannot overflow a search's costs.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] unless `weight` is finite and at least 1.
    pub fn with_weight(mut self, weight: f64) -> Result<Self> {
        if !(weight.is_finite() && weight >= 1.0) {
            return Err(Error::InvalidSetting(format!(
                "heuristic weight must be a finite number of at least 1, found {weight}"
            )));
        }
        self.weight = weight;
        Ok(self)
    }

    /// The kind.
    #[must_use]
    pub const fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// The weight.
    #[must_use]
    pub const fn weight(&self) -> f64 {
        self.weight
    }

    /// Whether routes found with this heuristic are guaranteed optimal for the default
    /// walking rules.
    #[must_use]
    pub fn is_admissible(&self, costs: &MoveCosts) -> bool {
        if self.weight > 1.0 {
            return false;
        }
        match self.kind {
            HeuristicKind::Octile | HeuristicKind::Zero => true,
            HeuristicKind::Manhattan { .. } => false,
            HeuristicKind::Euclidean => {
                f64::from(costs.diagonal) >= f64::from(costs.straight) * std::f64::consts::SQRT_2
            }
        }
    }

    /// Binds the heuristic to an agent and costs, ready to estimate.
    ///
    /// Each unit cost is read as at most [`MAX_UNIT_COST`]; every setting that
    /// [`MoveCosts::validate`] accepts is below it, so this changes nothing for them, and for
    /// larger (unvalidated) costs it only lowers the estimate, which stays admissible.
    #[must_use]
    pub fn estimator(&self, agent: &Agent, costs: &MoveCosts) -> Estimator {
        let unit = |cost: u32| u64::from(cost).min(MAX_UNIT_COST);
        // Whether the agent flies or swims is asked once, when the heuristic is bound.
        let free = agent.movement.is_free().then(|| FreeWeights::new(costs));
        let straight = unit(costs.straight);
        let diagonal = unit(costs.diagonal.min(costs.straight.saturating_mul(2)));
        let side = straight.min(diagonal);
        Estimator {
            walking_octile: self.kind == HeuristicKind::Octile
                && self.weight <= 1.0
                && agent.diagonals
                && free.is_none(),
            free_octile: self.kind == HeuristicKind::Octile && self.weight <= 1.0 && free.is_some(),
            kind: self.kind,
            weight: self.weight,
            straight,
            diagonal,
            ascend: unit(costs.ascend),
            descend: unit(costs.descend),
            octile: Octile {
                side,
                extra_diagonal: diagonal - side,
                ascend: unit(costs.ascend),
                descend: unit(costs.descend),
            },
            diagonals: agent.diagonals,
            free,
        }
    }
}

/// The 3D octile distance of a free mover as `gamma * max + beta * mid + alpha * min` of the
/// sorted axis distances, with `gamma >= beta >= alpha >= 0`.
///
/// With that order the distance is a norm (a non-negative sum of the norms "largest axis",
/// "sum of the two largest" and "sum of all three"), so it obeys the triangle inequality; and
/// it charges each face, edge and corner step at most that step's cost. Together: consistent
/// and admissible. For costs ordered like 1, sqrt 2, sqrt 3 (`diagonal <= 2 straight`,
/// `corner <= 2 diagonal - straight`) it is the exact cost through empty space:
/// `gamma = straight`, `beta = diagonal - straight`, `alpha = corner - diagonal`. Other costs
/// get the largest weights in that order that still undercharge every step.
#[derive(Debug, Clone, Copy)]
struct FreeWeights {
    gamma: u64,
    beta: u64,
    alpha: u64,
}

impl FreeWeights {
    fn new(costs: &MoveCosts) -> Self {
        let (face, edge, corner) = (
            u64::from(costs.straight),
            u64::from(costs.diagonal),
            u64::from(costs.corner),
        );
        let gamma = face.min(edge).min(corner);
        let beta = gamma.min(edge.min(corner) - gamma);
        let alpha = beta.min(corner - beta - gamma);
        Self { gamma, beta, alpha }
    }

    #[inline]
    fn distance(self, dx: u64, dy: u64, dz: u64) -> u64 {
        let (lo, hi) = (dx.min(dz), dx.max(dz));
        let (min, mid, max) = if dy <= lo {
            (dy, lo, hi)
        } else if dy <= hi {
            (lo, dy, hi)
        } else {
            (lo, hi, dy)
        };
        // Weights are at most 2^32 and distances below 2^32: each product fits, the sum may not.
        (self.gamma * max)
            .saturating_add(self.beta * mid)
            .saturating_add(self.alpha * min)
    }
}
/// The largest estimate an [`Estimator`] returns: estimates saturate here, so that a
/// search's `g + h` cannot overflow `u64` for any weight, cost setting or goal distance
/// (a route's cost `g` stays below `2^63`: at most `2^32` moves of at most `2^31` each).
/// Lowering an estimate keeps it admissible and consistent, and a weighted search keeps its
/// bound of `w` times optimal.
pub const MAX_ESTIMATE: u64 = 1 << 62;

/// The largest unit cost an [`Estimator`] works with: `2^31 - 1`. Every product of a unit
/// cost and a distance (below `2^32`) is then below `2^63`, and the octile estimate, the sum
/// of two of them, cannot overflow `u64`: the default heuristic needs no saturating
/// arithmetic in the search's inner loop.
pub const MAX_UNIT_COST: u64 = (1 << 31) - 1;

/// A heuristic bound to an agent and its costs. Goals use it to estimate.
#[derive(Debug, Clone, Copy)]
pub struct Estimator {
    /// The default case, a walker with diagonals under the unweighted octile heuristic,
    /// decided once here so that the estimate every search computes per generated node is a
    /// few instructions inlined into the search loop; every other case takes the general path.
    walking_octile: bool,
    /// The same for a flier or swimmer: the unweighted 3D octile heuristic, inlined.
    free_octile: bool,
    kind: HeuristicKind,
    weight: f64,
    straight: u64,
    diagonal: u64,
    ascend: u64,
    descend: u64,
    /// The walking octile estimate's weights, read once here rather than per estimate.
    octile: Octile,
    diagonals: bool,
    /// The 3D octile weights of a flier or swimmer; `None` for a walker.
    free: Option<FreeWeights>,
}

/// The octile estimate of a walker with diagonals, the default heuristic: `side * hi +
/// extra_diagonal * lo` over the larger and smaller horizontal distances (the general path's
/// `diagonal * lo + side * (hi - lo)`, the same sum), plus `ascend` per block climbed or
/// `descend` per block fallen. Each weight is below 2^31.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Octile {
    /// `min(straight, diagonal)`: what a block along the longer axis costs at least.
    side: u64,
    /// `diagonal - side`: what a block along the shorter axis adds.
    extra_diagonal: u64,
    ascend: u64,
    descend: u64,
}

impl Octile {
    /// The estimate for horizontal distances `dx`, `dz` and `climb` blocks up (`up`) or down,
    /// each below 2^32: no sum overflows `u64`, and below [`MAX_ESTIMATE`] when each distance
    /// is below 2^29.
    #[inline]
    pub(crate) fn estimate(self, dx: u64, up: bool, climb: u64, dz: u64) -> u64 {
        let (lo, hi) = (dx.min(dz), dx.max(dz));
        let vertical = if up {
            self.ascend * climb
        } else {
            self.descend * climb
        };
        self.side * hi + self.extra_diagonal * lo + vertical
    }
}

impl Estimator {
    /// The default octile estimate's weights, when this is it (a walker with diagonals under
    /// the unweighted octile heuristic): a search that knows its distances stay small asks
    /// them directly, with no case to decide per estimate.
    #[inline]
    pub(crate) fn octile(&self) -> Option<Octile> {
        self.walking_octile.then_some(self.octile)
    }

    /// The estimate from `from` to `to`, exact for any two positions (the differences are
    /// taken in 64 bits).
    #[inline]
    #[must_use]
    pub fn between(&self, from: IVec3, to: IVec3) -> u64 {
        let d = to.as_i64vec3() - from.as_i64vec3();
        // Two i32 coordinates differ by at most 2^32 - 1, which fits u32.
        self.delta(d.x.unsigned_abs() as u32, d.y, d.z.unsigned_abs() as u32)
    }

    /// The estimate for a horizontal distance of `dx` and `dz` blocks and a climb of `dy`
    /// blocks (negative: a descent). `dy` is an `i64` so that the difference of any two `i32`
    /// heights fits. Saturates at [`MAX_ESTIMATE`].
    #[inline]
    #[must_use]
    pub fn delta(&self, dx: u32, dy: i64, dz: u32) -> u64 {
        if self.walking_octile {
            let climb = dy.unsigned_abs().min(u64::from(u32::MAX));
            // It cannot overflow (see the general path).
            return self
                .octile
                .estimate(u64::from(dx), dy >= 0, climb, u64::from(dz))
                .min(MAX_ESTIMATE);
        }
        if self.free_octile
            && let Some(free) = self.free
        {
            let climb = dy.unsigned_abs().min(u64::from(u32::MAX));
            // The general path's free octile case, written out.
            return free
                .distance(u64::from(dx), climb, u64::from(dz))
                .min(MAX_ESTIMATE);
        }
        self.general_delta(dx, dy, dz)
    }

    /// [`Estimator::delta`] for every case but the walking octile one.
    #[inline(never)]
    fn general_delta(&self, dx: u32, dy: i64, dz: u32) -> u64 {
        // Unit costs are below 2^31 and distances below 2^32 (`climb` is the difference of
        // two i32), so each product is below 2^63; so are the octile terms with diagonals,
        // each a product or a sum of products over distances that add up to at most 2^32, and
        // their sum fits u64. The other kinds, with more terms, saturate.
        let (dx, dz) = (u64::from(dx), u64::from(dz));
        if let Some(free) = self.free {
            let climb = dy.unsigned_abs().min(u64::from(u32::MAX));
            return self.free_delta(free, dx, climb, dz);
        }
        let climb = dy.unsigned_abs().min(u64::from(u32::MAX));
        let vertical = if dy >= 0 {
            self.ascend * climb
        } else {
            self.descend * climb
        };
        let raw = match self.kind {
            HeuristicKind::Octile if self.diagonals => {
                let (lo, hi) = (dx.min(dz), dx.max(dz));
                // When a diagonal step costs less than a side step, two diagonals in a
                // zigzag cover two blocks along one axis: each of the `hi - lo` blocks
                // then costs at least `diagonal`.
                let side = self.straight.min(self.diagonal);
                self.diagonal * lo + side * (hi - lo) + vertical
            }
            HeuristicKind::Octile => (self.straight * dx)
                .saturating_add(self.straight * dz)
                .saturating_add(vertical),
            HeuristicKind::Manhattan { height_weight } => (self.straight * dx)
                .saturating_add(self.straight * dz)
                .saturating_add(u64::from(height_weight) * climb),
            HeuristicKind::Euclidean => {
                let squares = u128::from(dx * dx) + u128::from(dz * dz);
                // A float-to-integer `as` saturates.
                let flat = ((squares as f64).sqrt() * self.straight as f64) as u64;
                flat.saturating_add(vertical)
            }
            HeuristicKind::Zero => 0,
        };
        self.weighted(raw)
    }

    #[inline]
    fn weighted(&self, raw: u64) -> u64 {
        let weighted = if self.weight > 1.0 {
            (raw as f64 * self.weight) as u64
        } else {
            raw
        };
        weighted.min(MAX_ESTIMATE)
    }

    /// [`Estimator::delta`] for a flier or swimmer: 3D octile, or the kind's formula with a
    /// vertical block costing `straight` like any face step.
    #[inline]
    fn free_delta(&self, free: FreeWeights, dx: u64, dy: u64, dz: u64) -> u64 {
        let raw = match self.kind {
            HeuristicKind::Octile => free.distance(dx, dy, dz),
            HeuristicKind::Manhattan { height_weight } => (self.straight * dx)
                .saturating_add(self.straight * dz)
                .saturating_add(u64::from(height_weight) * dy),
            HeuristicKind::Euclidean => {
                let squares = u128::from(dx * dx) + u128::from(dy * dy) + u128::from(dz * dz);
                // A float-to-integer `as` saturates.
                ((squares as f64).sqrt() * free.gamma as f64) as u64
            }
            HeuristicKind::Zero => 0,
        };
        self.weighted(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inlined octile estimate every walker's search computes (by default) is the general
    /// path's octile case, near and far, at every cost setting the tests use, up to distances
    /// where the estimate saturates.
    #[test]
    fn the_inlined_octile_estimate_is_the_general_one() {
        let deltas = (0..3_000u32).step_by(211).flat_map(|dx| {
            (0..3_000u32)
                .step_by(307)
                .flat_map(move |dz| (-600..600i64).step_by(97).map(move |dy| (dx, dy, dz)))
        });
        let far = [
            (u32::MAX, i64::from(u32::MAX), u32::MAX),
            (u32::MAX, -i64::from(u32::MAX), 7),
            (65_534, 65_534, 1),
        ];
        let odd = MoveCosts {
            diagonal: 25,
            ..MoveCosts::default()
        };
        let cheap_diagonal = MoveCosts {
            diagonal: 8,
            ..MoveCosts::default()
        };
        for costs in [
            MoveCosts::default(),
            MoveCosts::octile(),
            odd,
            cheap_diagonal,
        ] {
            let estimator = Heuristic::default().estimator(&Agent::default(), &costs);
            assert!(estimator.walking_octile);
            for (dx, dy, dz) in deltas.clone().chain(far) {
                assert_eq!(
                    estimator.delta(dx, dy, dz),
                    estimator.general_delta(dx, dy, dz),
                    "{dx} {dy} {dz} at {costs:?}"
                );
            }
        }
    }
}
