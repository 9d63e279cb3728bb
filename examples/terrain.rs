//! The main example: generate the built-in procedural world, route a batch of NPCs across it
//! at distances from 16 to 400 blocks, print what each search did, and write a picture.
//!
//! ```sh
//! cargo run --release --example terrain
//! cargo run --release --example terrain -- --seed 7 --size 256 --pairs 12 --out map.png
//! ```
//!
//! The picture (`terrain.png` by default) is the world seen from above, shaded by height,
//! water blue and lava orange; the cells each search expanded are tinted yellow, routes are
//! magenta, starts white and goals black.

use std::fs::File;
use std::io::BufWriter;
use std::process::ExitCode;

use voxnav::terrain::TerrainConfig;
use voxnav::terrain::demo::{DemoConfig, DemoReport, run_demo};

const USAGE: &str = "usage: terrain [--seed N] [--size N] [--pairs N] [--out FILE.png]";

struct Options {
    seed: u64,
    size: i32,
    pairs: usize,
    out: String,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        seed: TerrainConfig::default().seed,
        size: TerrainConfig::default().size_x,
        pairs: DemoConfig::default().pairs,
        out: "terrain.png".to_owned(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(USAGE.to_owned());
        }
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))?;
        let number = |what: &str| format!("{flag} wants {what}, got {value:?}; {USAGE}");
        match flag.as_str() {
            "--seed" => options.seed = value.parse().map_err(|_| number("an integer"))?,
            "--size" => {
                options.size = value
                    .parse()
                    .ok()
                    .filter(|&size| (8..=4096).contains(&size))
                    .ok_or_else(|| number("a width from 8 to 4096 blocks"))?;
            }
            "--pairs" => {
                options.pairs = value
                    .parse()
                    .ok()
                    .filter(|&pairs| (1..=10_000).contains(&pairs))
                    .ok_or_else(|| number("a count from 1 to 10000"))?;
            }
            "--out" => options.out = value,
            _ => return Err(format!("unknown option {flag}; {USAGE}")),
        }
    }
    Ok(options)
}

fn write_png(report: &DemoReport, path: &str) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {path}: {e}");
    let file = File::create(path).map_err(|e| failed(&e))?;
    let mut encoder = png::Encoder::new(
        BufWriter::new(file),
        report.map.width(),
        report.map.height(),
    );
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| failed(&e))?;
    writer
        .write_image_data(report.map.pixels())
        .map_err(|e| failed(&e))?;
    writer.finish().map_err(|e| failed(&e))
}

fn run() -> Result<(), String> {
    let options = parse_args()?;
    // A world as tall as the default one; only its width and depth change.
    let terrain =
        TerrainConfig::default()
            .with_seed(options.seed)
            .with_size(options.size, 128, options.size);
    let config = DemoConfig::default()
        .with_terrain(terrain)
        .with_pairs(options.pairs);
    let report = run_demo(&config).map_err(|e| e.to_string())?;
    println!(
        "generated a {} x {} x {} world (seed {}) in {:.1} ms",
        options.size,
        128,
        options.size,
        options.seed,
        report.generation.as_secs_f64() * 1e3
    );
    print!("{}", report.table());
    println!("{}", report.summary());
    println!(
        "the searches expanded nodes in {} of {} columns ({:.2}%)",
        report.explored_columns,
        report.total_columns,
        100.0 * report.explored_columns as f64 / report.total_columns as f64
    );
    write_png(&report, &options.out)?;
    println!(
        "wrote {} ({} x {} pixels): terrain shaded by height, water blue, lava orange, \
         expanded cells yellow, routes magenta, starts white, goals black",
        options.out,
        report.map.width(),
        report.map.height()
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("terrain: {message}");
            ExitCode::from(2)
        }
    }
}
