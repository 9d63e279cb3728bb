//! The direct route: the canonical route from the start to the goal, tried move by move
//! before any search (see the module notes of [`super`]).

use glam::IVec3;

use super::fits::Fits;
use crate::world::VoxelWorld;

/// The runs of the canonical route from `start` to a position `v` away: a corner run, an
/// edge run and a face run, `(direction, steps)` each (a run of no steps where two
/// components of `v` have the same size).
fn direct_runs(v: IVec3) -> [(IVec3, i32); 3] {
    let size = v.abs();
    let mut axes = [0usize, 1, 2];
    axes.sort_unstable_by_key(|&i| size[i]);
    let along = |from: usize| {
        let mut d = IVec3::ZERO;
        for &i in &axes[from..] {
            d[i] = v[i].signum();
        }
        d
    };
    let [low, mid, high] = axes.map(|i| size[i]);
    [
        (along(0), low),
        (along(1), mid - low),
        (along(2), high - mid),
    ]
}

/// The orders in which [`direct_route`] tries the three runs.
const RUN_ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The canonical route from `from` to `goal` (a corner run, an edge run and a face run, in
/// the first of the six orders whose every move is legal), its positions after `from` pushed
/// onto `path`; `false`, pushing nothing, when every order is blocked. Its cost is the
/// estimate, which no route beats, so it is optimal under uniform costs.
pub(super) fn direct_route<W: VoxelWorld + ?Sized>(
    fits: &mut Fits,
    world: &W,
    from: IVec3,
    goal: IVec3,
    path: &mut Vec<IVec3>,
) -> bool {
    let runs = direct_runs(goal - from);
    let mut tried = [[0usize; 3]; 6];
    'orders: for (n, order) in RUN_ORDERS.iter().enumerate() {
        // Orders that differ only in where an empty run goes are the same route.
        let mut kept = [0usize; 3];
        let mut len = 0;
        for &run in order {
            if runs[run].1 > 0 {
                kept[len] = run + 1;
                len += 1;
            }
        }
        if tried[..n].contains(&kept) {
            continue;
        }
        tried[n] = kept;
        let mut at = from;
        for &run in order {
            let (d, steps) = runs[run];
            for _ in 0..steps {
                if !move_fits(fits, world, at, d) {
                    continue 'orders;
                }
                at += d;
            }
        }
        let mut at = from;
        for &run in order {
            let (d, steps) = runs[run];
            for _ in 0..steps {
                at += d;
                path.push(at);
            }
        }
        return true;
    }
    false
}

/// Whether the move `d` from `at`, where the body fits, is legal: the body fits at `at` plus
/// each non-empty part of `d` (see [`fits`](super::fits)).
fn move_fits<W: VoxelWorld + ?Sized>(fits: &mut Fits, world: &W, at: IVec3, d: IVec3) -> bool {
    for sx in [0, d.x] {
        for sy in [0, d.y] {
            for sz in [0, d.z] {
                let s = IVec3::new(sx, sy, sz);
                if s != IVec3::ZERO && !fits.fits(world, at + s) {
                    return false;
                }
            }
        }
    }
    true
}
