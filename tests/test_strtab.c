#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/strtab.h"

Test(strtab, empty_string_is_id_zero)
{
	struct strtab st;

	strtab_init(&st);
	cr_assert_eq(strtab_intern(&st, "", 0), 0);
	cr_assert_str_eq(strtab_get(&st, 0), "");
	strtab_free(&st);
}

Test(strtab, ids_are_dense_stable_and_unique)
{
	struct strtab st;
	char buf[64];
	uint32_t ids[50000];

	strtab_init(&st);
	for (int i = 0; i < 50000; i++) {
		snprintf(buf, sizeof buf, "kernel_%d", i);
		ids[i] = strtab_intern(&st, buf, strlen(buf));
		cr_assert_eq(ids[i], (uint32_t)i + 1);
	}
	for (int i = 0; i < 50000; i += 7) {
		snprintf(buf, sizeof buf, "kernel_%d", i);
		cr_assert_eq(strtab_intern(&st, buf, strlen(buf)), ids[i]);
		cr_assert_eq(strtab_find(&st, buf, strlen(buf)), ids[i]);
		cr_assert_str_eq(strtab_get(&st, ids[i]), buf);
		cr_assert_eq(strtab_len(&st, ids[i]), strlen(buf));
	}
	cr_assert_eq(strtab_find(&st, "absent", 6), UINT32_MAX);
	cr_assert_eq(st.count, 50001);
	strtab_free(&st);
}

Test(strtab, embedded_nul_and_long_strings)
{
	struct strtab st;
	static char big[200000];
	uint32_t a, b, c;

	strtab_init(&st);
	a = strtab_intern(&st, "ab\0cd", 5);
	b = strtab_intern(&st, "ab", 2);
	cr_assert_neq(a, b);
	cr_assert_eq(strtab_len(&st, a), 5);
	memset(big, 'x', sizeof big - 1);
	c = strtab_intern(&st, big, sizeof big - 1);
	cr_assert_eq(strtab_len(&st, c), sizeof big - 1);
	cr_assert_eq(strtab_intern(&st, big, sizeof big - 1), c);
	cr_assert_str_eq(strtab_get(&st, b), "ab");
	strtab_free(&st);
}
