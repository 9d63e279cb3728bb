//! Checking Moving AI scenarios against the map they are meant for, before running them.

use crate::error::{Error, Result};
use crate::world::formats::movingai::Scenario;
use crate::world::grid::Grid2d;

/// Checks that every scenario was made for a map of `grid`'s size and that its start and goal
/// are free cells of `grid`, so that a runner can plan them all without a per-query error.
///
/// ```
/// use voxnav::flat::scenarios::check_scenarios;
/// use voxnav::world::{parse_movingai_map, parse_movingai_scen};
///
/// let grid = parse_movingai_map("type octile\nheight 1\nwidth 3\nmap\n...\n")?;
/// let fits = parse_movingai_scen("version 1\n0\tm.map\t3\t1\t0\t0\t2\t0\t2\n")?;
/// assert!(check_scenarios(&grid, &fits).is_ok());
/// let wrong_map = parse_movingai_scen("version 1\n0\tm.map\t4\t1\t0\t0\t2\t0\t2\n")?;
/// assert!(check_scenarios(&grid, &wrong_map).is_err());
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] naming the scenario's line when it expects a map of another size or its
/// start or goal is outside the map or blocked.
pub fn check_scenarios(grid: &Grid2d, scenarios: &[Scenario]) -> Result<()> {
    let (width, height) = (grid.width(), grid.height());
    for scenario in scenarios {
        if (scenario.map_width, scenario.map_height) != (width, height) {
            return Err(Error::parse(
                scenario.line,
                1,
                format!(
                    "the scenario expects a {}x{} map, but the map is {width}x{height}",
                    scenario.map_width, scenario.map_height
                ),
            ));
        }
        for (role, cell) in [("start", scenario.start), ("goal", scenario.goal)] {
            grid.check_cell(role, cell)
                .map_err(|e| Error::parse(scenario.line, 1, e.to_string()))?;
        }
    }
    Ok(())
}
