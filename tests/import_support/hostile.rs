//! Hostile files, generated (nothing stored in the repository): PDFs whose
//! forms draw themselves or fan out, a Flate bomb, HTML and Markdown nested
//! past any real document, a card list of a million rows. Each is what an
//! attacker with Manage Server on a server of their own could upload.
#![allow(dead_code)]

use std::io::Write;

fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    super::pdf::with_objects(objects)
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut s = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    s.extend_from_slice(data);
    s.extend_from_slice(b"\nendstream");
    s
}

fn page_tree(page_resources: &str, contents: usize) -> Vec<Vec<u8>> {
    vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << {page_resources} >> /Contents {contents} 0 R >>"
        )
        .into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ]
}

/// A page that draws form `/Fm0`, whose own content draws `/Fm0` (itself).
pub fn pdf_self_drawing_form() -> Vec<u8> {
    let mut objects = page_tree("/XObject << /Fm0 6 0 R >>", 5);
    objects.push(stream("", b"/Fm0 Do"));
    objects.push(stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << /Fm0 6 0 R >> >>",
        b"/Fm0 Do",
    ));
    pdf(&objects)
}

/// Forms that each draw the next `fan` times, `levels` deep: fan^levels
/// draws of a line of text from a file of a few kilobytes.
pub fn pdf_fan_out(levels: usize, fan: usize) -> Vec<u8> {
    let first_form = 6;
    let mut objects = page_tree(
        &format!("/XObject << /F0 {first_form} 0 R >> /Font << /F1 4 0 R >>"),
        5,
    );
    objects.push(stream("", b"/F0 Do"));
    for level in 0..levels {
        let (res, body) = if level + 1 < levels {
            (
                format!(
                    "/Resources << /XObject << /F{n} {obj} 0 R >> /Font << /F1 4 0 R >> >>",
                    n = level + 1,
                    obj = first_form + level + 1
                ),
                format!("/F{} Do ", level + 1).repeat(fan),
            )
        } else {
            (
                "/Resources << /Font << /F1 4 0 R >> >>".to_string(),
                "BT /F1 10 Tf (A rule drawn again and again.) Tj ET".to_string(),
            )
        };
        objects.push(stream(
            &format!("/Type /XObject /Subtype /Form /BBox [0 0 612 792] {res}"),
            body.as_bytes(),
        ));
    }
    pdf(&objects)
}

/// One page whose Flate-compressed content stream inflates to `inflated`
/// bytes of text-showing operators.
pub fn pdf_flate_bomb(inflated: usize) -> Vec<u8> {
    let line: &[u8] =
        b"(The active player may pass priority to the next player in turn order.) Tj T*\n";
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(b"BT /F1 10 Tf 12 TL 40 760 Td\n").unwrap();
    let mut chunk = Vec::with_capacity(line.len() * 1000);
    for _ in 0..1000 {
        chunk.extend_from_slice(line);
    }
    for _ in 0..inflated / chunk.len() + 1 {
        z.write_all(&chunk).unwrap();
    }
    z.write_all(b"ET\n").unwrap();
    let compressed = z.finish().unwrap();
    let mut objects = page_tree("/Font << /F1 4 0 R >>", 5);
    objects.push(stream("/Filter /FlateDecode", &compressed));
    pdf(&objects)
}

/// A font whose ToUnicode CMap maps every code to a long string, and a
/// page that shows many codes with it.
pub fn pdf_cmap_bomb(codes: usize) -> Vec<u8> {
    let long = "0041".repeat(64);
    let mut cmap = String::from(
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n",
    );
    for block in 0..64 {
        cmap.push_str("100 beginbfchar\n");
        for i in 0..100 {
            cmap.push_str(&format!("<{:04X}> <{long}>\n", block * 100 + i));
        }
        cmap.push_str("endbfchar\n");
    }
    cmap.push_str("endcmap CMapName currentdict /CMap defineresource pop end end\n");
    let mut shown = String::from("BT /F1 10 Tf 40 760 Td <");
    for i in 0..codes {
        shown.push_str(&format!("{:04X}", i % 6400));
    }
    shown.push_str("> Tj ET\n");
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".to_vec(),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /Helvetica /Encoding /Identity-H /DescendantFonts [7 0 R] /ToUnicode 6 0 R >>".to_vec(),
    ];
    objects.push(stream("", shown.as_bytes()));
    objects.push(stream("", cmap.as_bytes()));
    objects.push(b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Helvetica /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>".to_vec());
    pdf(&objects)
}

/// An HTML page with `depth` nested `tag` elements.
pub fn html_nested(tag: &str, depth: usize) -> Vec<u8> {
    format!(
        "<html><body>{}x{}</body></html>",
        format!("<{tag}>").repeat(depth),
        format!("</{tag}>").repeat(depth)
    )
    .into_bytes()
}

/// A Markdown rulebook whose ordered list nests `depth` levels.
pub fn markdown_nested_lists(depth: usize) -> Vec<u8> {
    let mut s = String::from("# Rules\n\n");
    for d in 0..depth {
        s.push_str(&"   ".repeat(d));
        s.push_str(&format!("1. item {d}\n"));
    }
    s.into_bytes()
}

/// A card list of `rows` one-field rows (2 bytes each).
pub fn csv_rows(rows: usize) -> Vec<u8> {
    let mut s = String::from("name\n");
    s.push_str(&"a\n".repeat(rows));
    s.into_bytes()
}
