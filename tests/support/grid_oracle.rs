//! Oracles for 2D grids, written independently of `voxnav::flat`: breadth-first search for
//! the 4-connected robot grid and octile Dijkstra (no corner cutting) for the 8-connected
//! Moving AI convention.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use voxnav::flat::IVec2;
use voxnav::world::Grid2d;

/// Fewest 4-connected actions from `start` to every cell, indexed `y * width + x` (`None`
/// where unreachable).
pub fn bfs(grid: &Grid2d, start: IVec2) -> Vec<Option<usize>> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let index = |c: IVec2| (c.y * w + c.x) as usize;
    let mut distance = vec![None; (w * h) as usize];
    distance[index(start)] = Some(0);
    let mut queue = VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        let d = distance[index(at)].unwrap_or_default();
        for step in [
            IVec2::new(1, 0),
            IVec2::new(-1, 0),
            IVec2::new(0, 1),
            IVec2::new(0, -1),
        ] {
            let next = at + step;
            if grid.is_free(next) && distance[index(next)].is_none() {
                distance[index(next)] = Some(d + 1);
                queue.push_back(next);
            }
        }
    }
    distance
}

/// Shortest 8-connected octile lengths without corner cutting from `start` to every cell,
/// indexed `y * width + x` (Dijkstra in floating point; a non-negative `f64`'s bits order as
/// its value does, so the heap holds them as integers).
pub fn octile_dijkstra(grid: &Grid2d, start: IVec2) -> Vec<Option<f64>> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let index = |c: IVec2| (c.y * w + c.x) as usize;
    let mut distance: Vec<Option<f64>> = vec![None; (w * h) as usize];
    let mut done = vec![false; (w * h) as usize];
    let mut heap = BinaryHeap::from([Reverse((0f64.to_bits(), start.x, start.y))]);
    distance[index(start)] = Some(0.0);
    while let Some(Reverse((bits, x, y))) = heap.pop() {
        let at = IVec2::new(x, y);
        if std::mem::replace(&mut done[index(at)], true) {
            continue;
        }
        let d = f64::from_bits(bits);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let next = at + IVec2::new(dx, dy);
                if (dx, dy) == (0, 0) || !grid.is_free(next) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal
                    && !(grid.is_free(at + IVec2::new(dx, 0))
                        && grid.is_free(at + IVec2::new(0, dy)))
                {
                    continue;
                }
                let step = if diagonal {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                if distance[index(next)].is_none_or(|known| d + step < known) {
                    distance[index(next)] = Some(d + step);
                    heap.push(Reverse(((d + step).to_bits(), next.x, next.y)));
                }
            }
        }
    }
    distance
}
