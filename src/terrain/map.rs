//! [`TopDownMap`]: a picture of a terrain seen from above, with routes drawn on it.

use glam::IVec3;

use super::Terrain;
use crate::Block;

/// An RGB picture of a [`Terrain`] seen from above: one square of `scale` x `scale` pixels
/// per column, shaded by the height of its top block, water blue and lava orange. Cells a
/// search expanded can be tinted, and routes drawn over it.
///
/// The pixels are plain 8-bit RGB rows (`width * 3` bytes each, top row = `z = 0`), ready for
/// any image encoder; voxnav itself writes no image files.
///
/// ```
/// use voxnav::terrain::{TerrainConfig, TopDownMap, generate_terrain_with_heights};
/// let terrain = generate_terrain_with_heights(&TerrainConfig::default().with_size(32, 48, 32))?;
/// let map = TopDownMap::new(&terrain, 2);
/// assert_eq!((map.width(), map.height()), (64, 64));
/// assert_eq!(map.pixels().len(), 64 * 64 * 3);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct TopDownMap {
    width: u32,
    height: u32,
    scale: u32,
    pixels: Vec<u8>,
}

/// The colour of a route on the map: magenta, which no terrain uses.
pub const ROUTE_COLOUR: [u8; 3] = [255, 40, 220];
/// The colour of a route's start: white.
pub const START_COLOUR: [u8; 3] = [255, 255, 255];
/// The colour of a route's goal: black.
pub const GOAL_COLOUR: [u8; 3] = [0, 0, 0];
/// The tint over expanded cells: bright yellow, mixed 2 parts to 3 of the terrain.
pub const EXPLORED_TINT: [u8; 3] = [255, 235, 60];

impl TopDownMap {
    /// The map of `terrain`, `scale` pixels per block (0 is taken as 1).
    #[must_use]
    pub fn new(terrain: &Terrain, scale: u32) -> Self {
        let scale = scale.max(1);
        let size = terrain.size();
        let (width, height) = (size.x as u32 * scale, size.z as u32 * scale);
        let mut map = Self {
            width,
            height,
            scale,
            pixels: vec![0; width as usize * height as usize * 3],
        };
        let span = size.y.max(1) as f32;
        for z in 0..size.z {
            for x in 0..size.x {
                let colour = match terrain.column_liquid(x, z) {
                    Some((Block::Water, low, high)) => {
                        // Deeper water is darker.
                        let depth = (high - low).min(12) as f32 / 12.0;
                        shade([70, 130, 225], 1.0 - 0.45 * depth)
                    }
                    Some((Block::Lava, ..)) => [255, 110, 20],
                    _ => {
                        let top = terrain.top(x, z).unwrap_or(0);
                        // Light from the north-west: slopes facing it are brighter.
                        let west = terrain.top(x - 1, z).unwrap_or(top);
                        let north = terrain.top(x, z - 1).unwrap_or(top);
                        let relief = ((top - west) + (top - north)) as f32 * 0.06;
                        shade(
                            land_colour(top as f32 / span),
                            1.0 + relief.clamp(-0.35, 0.35),
                        )
                    }
                };
                map.fill_cell(x, z, colour);
            }
        }
        map
    }

    /// The width in pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels: `height` rows of `width` RGB triples.
    #[must_use]
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The colour of the pixel at `(px, py)`, if inside.
    #[must_use]
    pub fn pixel(&self, px: u32, py: u32) -> Option<[u8; 3]> {
        if px >= self.width || py >= self.height {
            return None;
        }
        let i = (py as usize * self.width as usize + px as usize) * 3;
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }

    /// Tints the column of every feet position in `cells` with [`EXPLORED_TINT`]; a column
    /// listed many times is tinted once. Positions outside the map are ignored.
    pub fn tint_explored(&mut self, cells: impl IntoIterator<Item = IVec3>) {
        let columns = (self.width / self.scale) as usize * (self.height / self.scale) as usize;
        let mut seen = vec![false; columns];
        for cell in cells {
            let Some(index) = self.column_index(cell.x, cell.z) else {
                continue;
            };
            if std::mem::replace(&mut seen[index], true) {
                continue;
            }
            let colour = self.cell_colour(cell.x, cell.z);
            let mixed = std::array::from_fn(|i| {
                ((3 * u16::from(colour[i]) + 2 * u16::from(EXPLORED_TINT[i])) / 5) as u8
            });
            self.fill_cell(cell.x, cell.z, mixed);
        }
    }

    /// Draws a route (feet positions, consecutive ones adjacent) in [`ROUTE_COLOUR`], its
    /// first position in [`START_COLOUR`] and its last in [`GOAL_COLOUR`], each marker a
    /// 3 x 3 block square.
    pub fn draw_route(&mut self, path: &[IVec3]) {
        self.draw_path(path);
        if let (Some(start), Some(goal)) = (path.first(), path.last()) {
            self.mark(*start, START_COLOUR);
            self.mark(*goal, GOAL_COLOUR);
        }
    }

    /// Draws the columns of `path` in [`ROUTE_COLOUR`], without markers (for a partial route,
    /// whose last position is not the goal).
    pub fn draw_path(&mut self, path: &[IVec3]) {
        for feet in path {
            self.fill_cell(feet.x, feet.z, ROUTE_COLOUR);
        }
    }

    /// A 3 x 3 block square of `colour` centred on `feet`'s column.
    pub fn mark(&mut self, feet: IVec3, colour: [u8; 3]) {
        for dz in -1..=1 {
            for dx in -1..=1 {
                self.fill_cell(feet.x + dx, feet.z + dz, colour);
            }
        }
    }

    fn column_index(&self, x: i32, z: i32) -> Option<usize> {
        let (columns_x, columns_z) = (self.width / self.scale, self.height / self.scale);
        let inside = x >= 0 && z >= 0 && (x as u32) < columns_x && (z as u32) < columns_z;
        inside.then(|| z as usize * columns_x as usize + x as usize)
    }

    fn cell_colour(&self, x: i32, z: i32) -> [u8; 3] {
        let (px, py) = (x as u32 * self.scale, z as u32 * self.scale);
        self.pixel(px, py).unwrap_or_default()
    }

    fn fill_cell(&mut self, x: i32, z: i32, colour: [u8; 3]) {
        if self.column_index(x, z).is_none() {
            return;
        }
        let scale = self.scale as usize;
        let (px, py) = (x as usize * scale, z as usize * scale);
        for row in py..py + scale {
            let start = (row * self.width as usize + px) * 3;
            for pixel in self.pixels[start..start + scale * 3].chunks_exact_mut(3) {
                pixel.copy_from_slice(&colour);
            }
        }
    }
}

/// Land by height (as a share of the world's height): green lowlands, olive hills, grey
/// rock, white peaks.
fn land_colour(level: f32) -> [u8; 3] {
    const STOPS: [(f32, [f32; 3]); 4] = [
        (0.2, [70.0, 140.0, 60.0]),
        (0.45, [120.0, 150.0, 70.0]),
        (0.65, [140.0, 125.0, 105.0]),
        (0.8, [235.0, 235.0, 240.0]),
    ];
    let mut colour = STOPS[0].1;
    for pair in STOPS.windows(2) {
        let ((from, low), (to, high)) = (pair[0], pair[1]);
        if level >= from {
            let t = ((level - from) / (to - from)).min(1.0);
            colour = std::array::from_fn(|i| low[i] + (high[i] - low[i]) * t);
        }
    }
    colour.map(|c| c as u8)
}

fn shade(colour: [u8; 3], factor: f32) -> [u8; 3] {
    colour.map(|c| (f32::from(c) * factor).clamp(0.0, 255.0) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::{TerrainConfig, generate_terrain_with_heights};

    #[test]
    fn routes_and_markers_and_tints_change_exactly_their_cells() {
        let terrain =
            generate_terrain_with_heights(&TerrainConfig::default().with_size(32, 48, 32)).unwrap();
        let mut map = TopDownMap::new(&terrain, 2);
        let untouched = map.pixel(60, 60).unwrap();
        let before = map.pixel(20, 2).unwrap();
        map.tint_explored([IVec3::new(10, 5, 1), IVec3::new(10, 6, 1)]);
        let tinted = map.pixel(20, 2).unwrap();
        assert_ne!(tinted, before);
        assert_eq!(
            map.pixel(21, 3),
            Some(tinted),
            "the whole 2 x 2 square is tinted"
        );
        map.draw_route(&[
            IVec3::new(5, 9, 5),
            IVec3::new(6, 9, 5),
            IVec3::new(7, 9, 5),
            IVec3::new(8, 9, 5),
            IVec3::new(9, 9, 5),
        ]);
        assert_eq!(map.pixel(10, 10), Some(START_COLOUR));
        assert_eq!(map.pixel(14, 10), Some(ROUTE_COLOUR));
        assert_eq!(map.pixel(18, 10), Some(GOAL_COLOUR));
        assert_eq!(map.pixel(60, 60), Some(untouched));
        // Off the map: ignored, no panic.
        map.draw_route(&[IVec3::new(-5, 0, 99)]);
        assert_eq!(map.pixel(64, 0), None);
    }
}
