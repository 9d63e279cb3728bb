//! The body of the fuzz target `flat_jump`: the flat planner's engines (A*, jump point
//! search, and with precomputed jumps) against octile Dijkstra on small grids, and jump
//! tables kept current through cell edits against fresh builds (see `fuzz/README.md`).

use voxnav::SearchStatus;
use voxnav::flat::jps_plus::JumpTable;
use voxnav::flat::{GridEngine, GridPlanner, GridRoute, IVec2};
use voxnav::world::Grid2d;

use super::fuzz::Bytes;
use super::grid_oracle::octile_dijkstra;
use super::rng::Rng;

/// `route` is a legal 8-connected route from `start` to `goal` on `grid`: free cells, one
/// step apart, no diagonal step past a blocked side cell, of the length it reports.
fn check_grid_route(grid: &Grid2d, route: &GridRoute, (start, goal): (IVec2, IVec2), what: &str) {
    assert_eq!(route.cells.first(), Some(&start), "{what}");
    assert_eq!(route.cells.last(), Some(&goal), "{what}");
    assert_eq!(route.actions.len() + 1, route.cells.len(), "{what}");
    let mut length = 0.0;
    for pair in route.cells.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let d = b - a;
        assert!(
            d != IVec2::ZERO && d.abs().max_element() == 1,
            "{what}: {a} to {b}"
        );
        assert!(grid.is_free(b), "{what}: {b} is blocked");
        if d.x != 0 && d.y != 0 {
            let sides = [a + IVec2::new(d.x, 0), a + IVec2::new(0, d.y)];
            assert!(
                sides.iter().all(|&c| grid.is_free(c)),
                "{what}: {a} to {b} cuts a corner"
            );
            length += std::f64::consts::SQRT_2;
        } else {
            length += 1.0;
        }
    }
    assert!(
        (route.octile_length() - length).abs() < 1e-6,
        "{what}: {length}"
    );
}

/// Flat target: on a grid up to 40 x 40 whose blocked cells the bytes give (about one in
/// four; a seed in them draws the queries and edits), every engine of the flat planner (A*, JPS, JPS+) answers three queries between free
/// cells at the length octile Dijkstra finds, with a legal route; after random cells are
/// freed and blocked, a jump table brought up to date by its edits equals a fresh build,
/// entry by entry.
pub fn flat_jump(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let (width, height) = (
        1 + u32::from(bytes.byte() % 40),
        1 + u32::from(bytes.byte() % 40),
    );
    // The queries and edits come from a seed, the cells from the rest: two bits a cell,
    // blocked when both are set.
    let mut rng = Rng::new((0..4).fold(0u64, |seed, _| seed << 8 | u64::from(bytes.byte())));
    let mut bits = (0u8, 0u32);
    let mut blocked = Vec::with_capacity((width * height) as usize);
    for _ in 0..width * height {
        if bits.1 == 0 {
            bits = (bytes.byte(), 4);
        }
        blocked.push(bits.0 & 3 == 3);
        bits = (bits.0 >> 2, bits.1 - 1);
    }
    let grid = Grid2d::from_blocked(width, height, blocked.clone()).expect("a small grid");
    let free: Vec<IVec2> = (0..height as i32)
        .flat_map(|y| (0..width as i32).map(move |x| IVec2::new(x, y)))
        .filter(|&c| grid.is_free(c))
        .collect();
    if free.is_empty() {
        return;
    }
    let mut planners: Vec<GridPlanner> = GridEngine::ALL
        .iter()
        .map(|&engine| {
            let planner = GridPlanner::octile(grid.clone()).expect("a valid grid");
            planner
                .with_engine(engine)
                .expect("octile costs suit every engine")
        })
        .collect();
    for _ in 0..3 {
        let ends = (rng.pick(&free), rng.pick(&free));
        let expected =
            octile_dijkstra(&grid, ends.0)[(ends.1.y * width as i32 + ends.1.x) as usize];
        for planner in &mut planners {
            let what = format!(
                "{}: {} -> {} on {width} x {height}",
                planner.engine().name(),
                ends.0,
                ends.1
            );
            let route = planner.plan(ends.0, ends.1).expect("free cells");
            match expected {
                Some(length) => {
                    assert_eq!(route.status, SearchStatus::Found, "{what}");
                    check_grid_route(&grid, &route, ends, &what);
                    assert!(
                        (route.octile_length() - length).abs() < 1e-6,
                        "{what}: {length}"
                    );
                }
                None => assert_eq!(route.status, SearchStatus::Unreachable, "{what}"),
            }
        }
    }
    let mut table = JumpTable::new(&grid).expect("a small grid");
    for edit in 0..=rng.below(8) {
        let (x, y) = (rng.coord(width as i32), rng.coord(height as i32));
        let now_blocked = rng.chance(50);
        assert!(table.set_free(x, y, !now_blocked), "({x}, {y}) lies inside");
        blocked[(y * width as i32 + x) as usize] = now_blocked;
        let now = Grid2d::from_blocked(width, height, blocked.clone()).expect("a small grid");
        let fresh = JumpTable::new(&now).expect("a small grid");
        for (cx, cy) in (-1..=height as i32).flat_map(|y| (-1..=width as i32).map(move |x| (x, y)))
        {
            for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
                assert_eq!(
                    table.distance(cx, cy, dx, dy),
                    fresh.distance(cx, cy, dx, dy),
                    "({cx}, {cy}) towards ({dx}, {dy}) after edit {edit} at ({x}, {y})"
                );
            }
        }
    }
}
