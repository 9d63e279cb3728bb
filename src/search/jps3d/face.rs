//! The straight (face) jump scanned by word: up to 64 positions per step of the scan, read as
//! parts of lines of "fits" bits (see `fits/lines.rs`).
//!
//! A face jump along `d` from `c - d` to `c` finds a forced move at `c` only where some
//! position of the 3 x 3 slab around `c - d` does not fit while the position beside `c` in the
//! same line does: a forced move `e` needs the body to fit in the whole box of its move, which
//! holds every position beside `c` its replacement goes through, so the replacement can fail
//! only at a position beside `c - d` (and a move with a component against `d` is replaced by
//! steps within that slab, which are legal when the move is). So the scan marks, in each of
//! the 8 side lines, where a position that does not fit is followed by one that does, and
//! tests only those positions (and the goal) cell by cell, with the rules' own test.

use glam::IVec3;

use super::Tables;
use super::fits::Fits;
use crate::moves::fly::FREE_DIRECTIONS;
use crate::world::VoxelWorld;

/// The face jump from `from` in the face direction `dir`, as [`super::jump::jump`] makes it
/// (the goal, the first position with a forced move, `None` when the next move is illegal
/// first), and after `cap` steps the position reached. Only
/// where [`Fits::has_rays`].
pub(super) fn face_jump<W: VoxelWorld + ?Sized>(
    tables: &Tables,
    fits: &mut Fits,
    world: &W,
    from: IVec3,
    dir: usize,
    goal: IVec3,
    cap: u32,
) -> Option<IVec3> {
    let d = FREE_DIRECTIONS[dir];
    let axis = if d.x != 0 {
        0
    } else if d.y != 0 {
        1
    } else {
        2
    };
    let forward = d[axis] > 0;
    let (u, v) = (IVec3::AXES[(axis + 1) % 3], IVec3::AXES[(axis + 2) % 3]);
    let sides: [IVec3; 8] = [-u - v, -u, -u + v, -v, v, u - v, u, u + v];
    let to_goal = goal - from;
    let goal_steps = if to_goal.dot(u) == 0 && to_goal.dot(v) == 0 {
        u32::try_from(to_goal.dot(d)).ok()
    } else {
        None
    };
    // The scan goes part by part (see [`Fits::part`]): `base` is the first position of a
    // part, `done` its steps from `from`, and bit `s` of `before` whether the position before
    // `base` beside it on side `s` fits.
    let (mut base, mut done, mut before) = (from, 0u32, 0u8);
    loop {
        let (centre, count) = fits.part(world, base, axis, forward);
        // Positions `0 .. reach` of the part fit, so the jump reaches them.
        let reach = centre.trailing_ones().min(count);
        // Bit `i`: a side line turns free at the part's position `i`.
        let mut turns = 0u64;
        let mut after = 0u8;
        for (s, &side) in sides.iter().enumerate() {
            let (line, _) = fits.part(world, base + side, axis, forward);
            turns |= !(line << 1 | u64::from(before >> s & 1)) & line;
            after |= ((line >> (count - 1) & 1) as u8) << s;
        }
        let mut candidates = turns;
        if let Some(steps) = goal_steps.and_then(|g| g.checked_sub(done))
            && steps < count
        {
            candidates |= 1 << steps;
        }
        if done == 0 {
            // `from` itself.
            candidates &= !1;
        }
        let remaining = cap - done;
        // The positions `0 ..= last` of the part are reached within the cap.
        let within = reach.min(remaining.saturating_add(1));
        candidates &= if within >= 64 {
            u64::MAX
        } else {
            (1u64 << within) - 1
        };
        while candidates != 0 {
            let i = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let at = base + d * i as i32;
            if at == goal || tables.forced_moves(dir, fits.around(world, at)) != 0 {
                return Some(at);
            }
        }
        if remaining < reach {
            return Some(base + d * remaining as i32);
        }
        if reach < count {
            return None;
        }
        base += d * count as i32;
        done += count;
        before = after;
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::world::{Block, Bounds, ChunkedWorld};

    /// The face jump cell by cell: the rules' forced-move test at every position; the goal,
    /// the first position with a forced move, the position `cap`
    /// steps on (never for a `cap` of 0), or `None` at a wall. The tables' test reads it too.
    pub(in crate::search::jps3d) fn face_jump_by_cells<W: VoxelWorld + ?Sized>(
        tables: &Tables,
        fits: &mut Fits,
        world: &W,
        from: IVec3,
        dir: usize,
        goal: IVec3,
        cap: u32,
    ) -> Option<IVec3> {
        let d = FREE_DIRECTIONS[dir];
        let mut at = from;
        for steps in 1.. {
            let next = at + d;
            if !fits.fits(world, next) {
                return None;
            }
            if next == goal
                || tables.forced_moves(dir, fits.around(world, next)) != 0
                || steps == cap
            {
                return Some(next);
            }
            at = next;
        }
        unreachable!("a bounded world ends every jump")
    }

    /// Rays say what the cells say (along every axis, both ways, across word and block
    /// edges and outside the bounds), and a jump scanned by word stops where the cell-by-cell
    /// jump stops, at every forced move and at the goal, on random worlds at negative and
    /// positive offsets, for bodies one to three cells tall.
    #[test]
    fn a_face_jump_by_word_stops_where_the_cell_by_cell_jump_stops() {
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        let tables = Tables::new(&MoveCosts::octile());
        let mut fits = Fits::default();
        let mut jumps = 0;
        for round in 0..12 {
            let min = IVec3::new(
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
                (next() % 200) as i32 - 100,
            );
            let size = IVec3::new(
                20 + (next() % 130) as i32,
                20 + (next() % 130) as i32,
                20 + (next() % 130) as i32,
            );
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            let solid = 1 + next() % 12;
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        if next() % 100 < solid {
                            world.set(min + IVec3::new(x, y, z), Block::Solid).unwrap();
                        }
                    }
                }
            }
            let agent = Agent::flier(1 + round % 3);
            fits.start(&world, &agent, true);
            assert!(fits.has_rays());
            let random = |next: &mut dyn FnMut() -> u64| {
                min - 2
                    + IVec3::new(
                        (next() % (size.x as u64 + 4)) as i32,
                        (next() % (size.y as u64 + 4)) as i32,
                        (next() % (size.z as u64 + 4)) as i32,
                    )
            };
            for _ in 0..300 {
                let at = random(&mut next);
                for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                    if d.abs().element_sum() != 1 {
                        continue;
                    }
                    let axis = (0..3).find(|&i| d[i] != 0).unwrap();
                    let (part, count) = fits.part(&world, at, axis, d[axis] > 0);
                    assert!((1..=64).contains(&count));
                    for i in 0..64 {
                        let cell = i < count && fits.fits(&world, at + d * i as i32);
                        assert_eq!(part >> i & 1 != 0, cell, "{at} {d} {i}");
                    }
                    // Parts end at the same place for every line along the axis.
                    let beside = at + IVec3::ONE - d.abs();
                    assert_eq!(fits.part(&world, beside, axis, d[axis] > 0).1, count);
                    if !fits.fits(&world, at) {
                        continue;
                    }
                    // Half the goals on the line, some past where the jump ends.
                    let goal = if next().is_multiple_of(2) {
                        at + d * (1 + (next() % 150) as i32)
                    } else {
                        random(&mut next)
                    };
                    let cap = if next().is_multiple_of(4) {
                        1 + (next() % 100) as u32
                    } else {
                        u32::MAX
                    };
                    let by_cells =
                        face_jump_by_cells(&tables, &mut fits, &world, at, dir, goal, cap);
                    let by_words = face_jump(&tables, &mut fits, &world, at, dir, goal, cap);
                    assert_eq!(by_words, by_cells, "{at} {d} goal {goal} cap {cap}");
                    jumps += usize::from(by_words.is_some());
                }
            }
        }
        assert!(jumps > 1000, "{jumps} jumps found something");
        // An unbounded world has no lines (its jumps step), nor a search that does not scan.
        fits.start(&ChunkedWorld::new(), &Agent::flier(1), true);
        assert!(!fits.has_rays());
        let bounded = ChunkedWorld::with_bounds(Bounds::new(IVec3::ZERO, IVec3::ONE)).unwrap();
        fits.start(&bounded, &Agent::flier(1), false);
        assert!(!fits.has_rays());
    }
}
