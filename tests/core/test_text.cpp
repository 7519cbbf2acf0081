// Number text: the examples text.hpp promises, written exactly so.
#include <catch2/catch.hpp>

#include "m2m/core/engine/text.hpp"

using namespace m2m::core;

TEST_CASE("significant figures never turn into an exponent for a reader") {
    CHECK(format_significant(46.27, 3) == "46.3");
    CHECK(format_significant(0.957, 2) == "0.96");
    CHECK(format_significant(7372.8, 3) == "7373");  // was "7.37e+03" in the presets' sources view
    CHECK(format_significant(6912, 3) == "6912");
    CHECK(format_significant(124e6, 4) == "124000000");
    CHECK(format_significant(2.5e-5, 2) == "2.5e-05");  // tiny errors keep their exponent
}

TEST_CASE("percentages: three significant figures, or rounded for a sentence") {
    CHECK(format_percent(0.513) == "51.3%");
    CHECK(format_percent(0.04) == "4%");
    CHECK(format_percent(3.0 / 7.0, 0) == "43%");
    CHECK(format_percent(0.0986, 1) == "9.9%");
    CHECK(format_percent(0.8, 1) == "80.0%");
}

TEST_CASE("counts in figures and in words") {
    CHECK(format_count(16896) == "16,896");
    CHECK(format_counted(1, "rack") == "1 rack");
    CHECK(format_counted(131072, "GPU") == "131,072 GPUs");
    CHECK(format_count_word(2) == "two");
    CHECK(format_count_word(6) == "six");
    CHECK(format_count_word(12) == "12");
    CHECK(format_words(3e11) == "300 billion");
    CHECK(format_scientific(3.15e23) == "3.15e23");
}

TEST_CASE("bytes, rates, ratios and fixed decimals") {
    CHECK(format_bytes(512) == "512 B");
    CHECK(format_bytes(2.8e12) == "2.8 TB");
    CHECK(format_bytes(1.98e9) == "1.98 GB");
    CHECK(format_gpu_memory(85.9e9) == "85.9 GB (80 GiB)");
    // A share never rounds up to the whole: 600 ns of 2.70 ms is not "99%" nor "100%".
    CHECK(format_share(0.42) == "42%");
    CHECK(format_share(0.993) == "99%");
    CHECK(format_share(0.996) == "over 99%");
    CHECK(format_share(1 - 0.6e-6 / 2.7e-3) == "over 99.9%");  // an A100 80GB: its 80 is GiB
    CHECK(format_gpu_memory(150.8e9) == "151 GB (140 GiB)");
    CHECK(format_rate_GBps(3350) == "3350 GB/s");
    CHECK(format_rate_GBps(999.7) == "1000 GB/s");  // not "1e+03 GB/s"
    CHECK(format_rate_GBps(0.5) == "500 MB/s");
    CHECK(format_rate_GBps(0.99971) == "1 GB/s");
    CHECK(format_rate_GBps(0.00106) == "1.06 MB/s");
    CHECK(format_rate_GBps(0.000933) == "933 KB/s");
    CHECK(format_ratio(123.4) == "123\u00d7");
    CHECK(format_fixed(240.0, 1) == "240.0");
}

TEST_CASE("durations: calendar units past two of them, thousands with commas") {
    const double year = 365.25 * 86400;
    CHECK(format_seconds(36367 * year) == "36,367 years");
    CHECK(format_seconds(1025 * year) == "1,025 years");
    CHECK(format_seconds(699 * year) == "699 years");
    CHECK(format_seconds(19.7 * year) == "19.7 years");
    CHECK(format_seconds(7.87 * 86400) == "7.87 days");
    // A figure that rounds up to the next unit is written in it: 999.5 us is "1.00 ms", not "1000 us".
    CHECK(format_seconds(0.00099951) == "1.00 ms");
    CHECK(format_seconds(999.4e-9) == "999 ns");
    CHECK(format_seconds(0.99996) == "1.00 s");
    CHECK(format_seconds(2.05e-3) == "2.05 ms");
}

TEST_CASE("a size typed back as the app writes it, or as nccl-tests does") {
    CHECK(parse_bytes_text("16 GB") == 16e9);
    CHECK(parse_bytes_text("1.5mb") == 1.5e6);
    CHECK(parse_bytes_text("1e9") == 1e9);
    CHECK(parse_bytes_text("1024") == 1024);
    CHECK(parse_bytes_text("8 B") == 8);
    CHECK(parse_bytes_text("64M") == 64.0 * 1048576);
    CHECK(parse_bytes_text("2 GiB") == 2.0 * 1073741824);
    CHECK(parse_bytes_text(" 4k ") == 4096);
    CHECK(parse_bytes_text("-5") == -5);  // a number past any slider's smallest size: clamped there
    CHECK(parse_bytes_text("0") == 0);
    // Written out with its thousands' commas, as Lesson 2's slider shows a size under 10 KB (the
    // box opens with "1,024 B" in it), or in words.
    CHECK(parse_bytes_text("1,024 B") == 1024);
    CHECK(parse_bytes_text("1,000,000") == 1e6);
    CHECK(parse_bytes_text("100 bytes") == 100);
    CHECK(parse_bytes_text("1 Byte") == 1);
    for (const char* bad : {"", "GB", "lots", "16 GBs", "nan", "inf", "1e999", "1,5 MB", "0x400", ",024 B", "10,24 KB"}) {
        INFO(bad);
        CHECK_FALSE(parse_bytes_text(bad));
    }
    // Each size format_bytes writes reads back as about itself.
    for (double b : {8.0, 1e3, 2.1e6, 1.07e9, 1.6e10}) CHECK(*parse_bytes_text(format_bytes(b)) == Approx(b).epsilon(0.01));
}

TEST_CASE("a count typed back as the app writes it") {
    CHECK(parse_count_text("1024") == 1024);
    CHECK(parse_count_text("16,384") == 16384);
    CHECK(parse_count_text(" 1e4 ") == 1e4);
    CHECK(parse_count_text("-3") == -3);  // a number: a slider clamps it
    CHECK(parse_count_text("1,234,567") == 1234567);
    for (const char* bad : {"", "GPUs", "1024 GPUs", "lots", "nan", "inf", "1e999", "4k", "1,5", "1,50", ",100", "0x400", "12,3456"}) {
        INFO(bad);
        CHECK_FALSE(parse_count_text(bad));
    }
    CHECK(*parse_count_text(format_count(16896)) == 16896);
}
