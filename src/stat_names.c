// SPDX-License-Identifier: MIT
/*
 * stat_names.c - addresses to names for the lock statistics: a lock's
 * variable (DEFINE_MUTEX(x) -> "x", a lock inside a static struct ->
 * "s+0x10") and a call site ("worker+0x2a").
 *
 * dladdr() sees only the exported dynamic symbols, and static objects
 * are what DEFINE_MUTEX usually makes: so the object holding the address
 * is found with dl_iterate_phdr(), its file (/proc/self/exe for the
 * program) mapped read-only, and its .symtab searched (.dynsym when it
 * was stripped).  Without a symbol: "module+0xoffset".  Only used when
 * printing, never in a lock's slow path.
 */
#include "api.h"

#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stat.h"

/* The object last mapped, kept for the next address. */
struct stat_syms {
	char path[512];
	const unsigned char *map;
	size_t size;
};

struct stat_module {
	const void *addr;		/* in */
	uintptr_t base;			/* out: load bias */
	char path[512];			/* out: file; "" if none */
	bool found;
	int seen;			/* objects looked at so far */
};

static int module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct stat_module *m = data;
	uintptr_t a = (uintptr_t)m->addr;
	int i;

	(void)size;
	m->seen++;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || a < lo || a - lo >= ph->p_memsz)
			continue;
		m->base = info->dlpi_addr;
		/*
		 * The first object is the program itself: glibc names it
		 * "", musl argv[0] when it was started through a /proc/
		 * path (musl's ldso/dynlink.c), which need not be a file
		 * here: /proc/self/exe is its file in every case.
		 */
		snprintf(m->path, sizeof(m->path), "%s",
			 m->seen > 1 && info->dlpi_name && *info->dlpi_name ?
			 info->dlpi_name : "/proc/self/exe");
		m->found = true;
		return 1;
	}
	return 0;
}

static void syms_unmap(struct stat_syms *s)
{
	if (s->map)
		munmap((void *)s->map, s->size);
	s->map = NULL;
	s->path[0] = 0;
}

/* Map @path (if not the one mapped already); false if not an ELF file. */
static bool syms_map(struct stat_syms *s, const char *path)
{
	struct stat st;
	void *map;
	int fd;

	if (s->map && !strcmp(s->path, path))
		return true;
	syms_unmap(s);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(ElfW(Ehdr))) {
		close(fd);
		return false;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return false;
	s->map = map;
	s->size = (size_t)st.st_size;
	snprintf(s->path, sizeof(s->path), "%s", path);
	if (memcmp(s->map, ELFMAG, SELFMAG) ||
	    s->map[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)) {
		syms_unmap(s);
		return false;
	}
	return true;
}

/* Whether [off, off + len) lies in the mapped file. */
static bool in_file(const struct stat_syms *s, uint64_t off, uint64_t len)
{
	return off <= s->size && len <= s->size - off;
}

/*
 * The symbol of section type @type (SHT_SYMTAB, SHT_DYNSYM) holding the
 * file address @rel: its name and @off from it.  A code address outside
 * every sized symbol takes the nearest function below it.
 */
static const char *find_sym(const struct stat_syms *s, unsigned int type,
			    uintptr_t rel, uintptr_t *off)
{
	const ElfW(Ehdr) *eh = (const void *)s->map;
	const ElfW(Shdr) *sh;
	const char *best = NULL;
	uintptr_t best_val = 0;
	unsigned int i;

	if (eh->e_shentsize != sizeof(*sh) ||
	    !in_file(s, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(*sh)))
		return NULL;
	sh = (const void *)(s->map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const ElfW(Shdr) *strs;
		const ElfW(Sym) *sym;
		size_t j, n;

		if (sh[i].sh_type != type || sh[i].sh_link >= eh->e_shnum ||
		    !in_file(s, sh[i].sh_offset, sh[i].sh_size))
			continue;
		strs = &sh[sh[i].sh_link];
		if (!in_file(s, strs->sh_offset, strs->sh_size))
			continue;
		sym = (const void *)(s->map + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		for (j = 0; j < n; j++) {
			unsigned int t = ELF64_ST_TYPE(sym[j].st_info);
			uintptr_t v = sym[j].st_value;

			if ((t != STT_OBJECT && t != STT_FUNC) ||
			    sym[j].st_shndx == SHN_UNDEF ||
			    sym[j].st_name >= strs->sh_size || rel < v)
				continue;
			if (rel - v < sym[j].st_size) {
				*off = rel - v;
				return (const char *)s->map +
				       strs->sh_offset + sym[j].st_name;
			}
			if (t == STT_FUNC && v >= best_val) {
				best_val = v;
				best = (const char *)s->map +
				       strs->sh_offset + sym[j].st_name;
			}
		}
	}
	if (best && *best)
		*off = rel - best_val;
	return best && *best ? best : NULL;
}

/**
 * stat_syms_open - start naming addresses
 *
 * Return: the state stat_symbolize() keeps between calls, or NULL (out
 * of memory: then stat_symbolize() names nothing).
 */
struct stat_syms *stat_syms_open(void)
{
	return calloc(1, sizeof(struct stat_syms));
}

void stat_syms_close(struct stat_syms *s)
{
	if (!s)
		return;
	syms_unmap(s);
	free(s);
}

/**
 * stat_symbolize - name an address
 * @s: from stat_syms_open()
 * @addr: a lock's address or a call site
 * @buf: where to write the name
 * @len: its size
 *
 * Return: @buf holding "symbol" or "symbol+0xoff"; "module+0xoff" for
 * a call site (or lock) in a loaded object without a symbol for it; NULL
 * for an address in no object (the heap, a stack).
 */
const char *stat_symbolize(struct stat_syms *s, const void *addr,
			   char *buf, unsigned long len)
{
	struct stat_module m = { .addr = addr };
	const char *name = NULL, *base;
	uintptr_t off = 0, rel;

	if (!s || !addr || !dl_iterate_phdr(module_cb, &m) || !m.found)
		return NULL;
	rel = (uintptr_t)addr - m.base;
	if (syms_map(s, m.path)) {
		name = find_sym(s, SHT_SYMTAB, rel, &off);
		if (!name)
			name = find_sym(s, SHT_DYNSYM, rel, &off);
	}
	if (name && off)
		snprintf(buf, len, "%s+0x%lx", name, (unsigned long)off);
	else if (name)
		snprintf(buf, len, "%s", name);
	else {
		char exe[512];
		ssize_t n;

		if (!strcmp(m.path, "/proc/self/exe")) {
			n = readlink(m.path, exe, sizeof(exe) - 1);
			exe[n > 0 ? n : 0] = 0;
			if (n > 0)
				snprintf(m.path, sizeof(m.path), "%s", exe);
		}
		base = strrchr(m.path, '/');
		snprintf(buf, len, "%s+0x%lx", base ? base + 1 : m.path,
			 (unsigned long)rel);
	}
	return buf;
}
