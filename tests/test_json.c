#include "config.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/json.h"

/* A writer on a memory stream; text() closes it and returns what it wrote. */
static struct json j;
static FILE *mem;
static char *buf;
static size_t len;

static void
open_mem(void)
{
	mem = open_memstream(&buf, &len);
	cr_assert_not_null(mem);
	json_init(&j, mem);
}

static void
close_mem(void)
{
	free(buf);
	buf = NULL;
}

static const char *
text(void)
{
	fclose(mem);
	return buf;
}

TestSuite(json, .init = open_mem, .fini = close_mem);

Test(json, scalar_alone_ends_with_a_newline)
{
	json_int(&j, -42);
	cr_assert_str_eq(text(), "-42\n");
}

Test(json, inline_object_separators)
{
	json_begin_object(&j, JSON_INLINE);
	json_key(&j, "a");
	json_int(&j, 1);
	json_key(&j, "b");
	json_str(&j, "x");
	json_key(&j, "c");
	json_null(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "{\"a\": 1, \"b\": \"x\", \"c\": null}\n");
}

Test(json, block_object_one_member_a_line)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "version");
	json_str(&j, "1");
	json_key(&j, "n");
	json_uint(&j, UINT64_MAX);
	json_end(&j);
	cr_assert_str_eq(text(),
	    "{\n  \"version\": \"1\",\n  \"n\": 18446744073709551615\n}\n");
}

Test(json, empty_containers_close_at_once)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "a");
	json_begin_array(&j, JSON_BLOCK);
	json_end(&j);
	json_key(&j, "o");
	json_begin_object(&j, JSON_INLINE);
	json_end(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "{\n  \"a\": [],\n  \"o\": {}\n}\n");
}

Test(json, newline_before_the_close_of_an_empty_block)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "tracks");
	json_begin_array(&j, JSON_BLOCK);
	json_newline(&j);
	json_end(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "{\n  \"tracks\": [\n  ]\n}\n");
}

Test(json, block_array_of_inline_objects_nested)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "steps");
	json_begin_array(&j, JSON_BLOCK);
	for (int i = 0; i < 2; i++) {
		json_begin_object(&j, JSON_INLINE);
		json_key(&j, "number");
		json_int(&j, i);
		json_key(&j, "t");
		json_begin_array(&j, JSON_INLINE);
		json_int(&j, 5);
		json_null(&j);
		json_end(&j);
		json_key(&j, "outlier");
		json_boolean(&j, i);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "{\n  \"steps\": [\n"
	    "    {\"number\": 0, \"t\": [5, null], \"outlier\": false},\n"
	    "    {\"number\": 1, \"t\": [5, null], \"outlier\": true}\n"
	    "  ]\n}\n");
}

Test(json, sameline_groups_members_of_a_block)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "rank");
	json_int(&j, 0);
	json_sameline(&j);
	json_key(&j, "device");
	json_int_or_null(&j, 0, 7);
	json_key(&j, "format");
	json_str(&j, "object");
	json_sameline(&j);
	json_key(&j, "events");
	json_int_or_null(&j, 1, 9);
	json_end(&j);
	cr_assert_str_eq(text(), "{\n  \"rank\": 0, \"device\": null,\n"
	    "  \"format\": \"object\", \"events\": 9\n}\n");
}

Test(json, newline_breaks_an_inline_object_at_its_depth)
{
	json_begin_object(&j, JSON_BLOCK);
	json_key(&j, "colls");
	json_begin_object(&j, JSON_INLINE);
	json_key(&j, "matched");
	json_int(&j, 3);
	json_newline(&j);
	json_key(&j, "worst");
	json_begin_array(&j, JSON_BLOCK);
	json_int(&j, 1);
	json_end(&j);
	json_end(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "{\n  \"colls\": {\"matched\": 3,\n"
	    "    \"worst\": [\n      1\n    ]}\n}\n");
}

Test(json, hang_lines_up_under_the_first_member)
{
	json_begin_array(&j, JSON_BLOCK);
	json_begin_object(&j, JSON_HANG);
	json_key(&j, "kind");
	json_str(&j, "k");
	json_newline(&j);
	json_key(&j, "remedy");
	json_str(&j, "r");
	json_end(&j);
	json_end(&j);
	cr_assert_str_eq(text(), "[\n  {\"kind\": \"k\",\n   \"remedy\": \"r\"}\n]\n");
}

Test(json, strings_and_keys_escaped)
{
	json_begin_object(&j, JSON_INLINE);
	json_key(&j, "a\"b");
	json_str(&j, "x\\y\n\t\x01\xff");
	json_end(&j);
	cr_assert_str_eq(text(),
	    "{\"a\\\"b\": \"x\\\\y\\n\\t\\u0001\\ufffd\"}\n");
}

Test(json, numbers_in_the_callers_format)
{
	json_begin_array(&j, JSON_INLINE);
	json_double(&j, "%.3f", 72.9584);
	json_double(&j, "%.4f", 0.30284);
	json_double(&j, "%.6g", 989.4);
	json_double(&j, "%.0f", 1073741824.0);
	json_int(&j, INT64_MIN);
	json_end(&j);
	cr_assert_str_eq(text(),
	    "[72.958, 0.3028, 989.4, 1073741824, -9223372036854775808]\n");
}

/* JSON has no infinity or NaN: they are written null, never "inf". */
Test(json, non_finite_numbers_are_null)
{
	json_begin_array(&j, JSON_INLINE);
	json_double(&j, "%.4f", HUGE_VAL);
	json_double(&j, "%.4f", -HUGE_VAL);
	json_double(&j, "%.4f", NAN);
	json_double(&j, "%.1f", 1.5);
	json_end(&j);
	cr_assert_str_eq(text(), "[null, null, null, 1.5]\n");
}
