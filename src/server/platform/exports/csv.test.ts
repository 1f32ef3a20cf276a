import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv.ts";

describe("CSV cells", () => {
  it("quotes what needs quoting and doubles quotes", () => {
    expect(csvLine(["plain", 'say "hi"', "a,b", "two\nlines", null, 12.5, true])).toBe('plain,"say ""hi""","a,b","two\nlines",,12.5,true\r\n');
  });

  it("neutralises cells a spreadsheet would run as formulas", () => {
    for (const payload of ['=HYPERLINK("http://evil")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]) {
      const cell = csvCell(payload);
      expect(cell.replace(/^"/, "").startsWith("'"), payload).toBe(true);
    }
    expect(csvCell(-42)).toBe("-42");
    expect(csvCell("a-b")).toBe("a-b");
  });
});
