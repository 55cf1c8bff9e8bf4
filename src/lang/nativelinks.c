/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The native parser's rules for symlink targets with "..", and the
 * renames and links that could move such a link higher (vfsbench-
 * loadfile(5), "Staying inside").
 */
#include <config.h>
#include "lang/nativeint.h"

#include "lang/ops.h"

/*
 * ".." in a symlink target ("src/link -> ../doc/readme", as in any source
 * tree). Read lexically from the link's directory, the target must stay
 * inside the client directory and end at least one level below the
 * link's directory: so, as a target without "..", it leads at least one
 * level down from the link, the walk through it is at least as deep on
 * disk as the count of the path's components says (parser_check_dotdot()),
 * and it climbs at most as many levels as its link's directory is deep.
 * That holds while the link stays that deep: a rename or a hard link
 * could move it (or a directory above it) higher, where its target would
 * lead out. So with such a target in the loadfile, every rename and link
 * must put its name in a directory at least as deep as the most any such
 * target climbs (parser_check_links()): the link is then always at least
 * that deep, whatever is moved, by whichever client, in whichever order.
 */
int parser_check_link(struct parser *p, const struct op *op,
		      const struct token *tok)
{
	unsigned int need;
	const char *c;
	int lowest;

	if (p->links_out)
		return 0;
	if (op->id == OP_RENAME || op->id == OP_LINK) {
		int depth = op_dir_depth(op->path2);

		if (!p->move_line || depth < p->move_depth) {
			p->move_line = p->line;
			p->move_col = tok[2].col;
			p->move_path = op->path2;
			p->move_depth = depth;
		}
		return 0;
	}
	if (op->id != OP_SYMLINK || !op_path_dotdot(op->path))
		return 0;
	c = op_target_leaves(op->path2, op->path, &need);
	if (c)
		return parser_error(
			p, token_col(&tok[1], (size_t)(c - op->path)),
			"'..' in symlink target '%s' leads out of the client directory from link '%s': a link must lead inside the client directory (a loadfile that only reads may link out with --links-out)",
			op->path, op->path2);
	if (op_path_depth(op->path, &lowest) < 1) {
		c = op_path_dotdot(op->path);
		return parser_error(
			p, token_col(&tok[1], (size_t)(c - op->path)),
			"'..' in symlink target '%s', which ends no lower than link '%s': a link with '..' must lead below its directory (a loadfile that only reads may link out with --links-out)",
			op->path, op->path2);
	}
	if (!p->updir_line) {
		p->updir_line = p->line;
		p->updir_col = tok[1].col;
		p->updir_target = op->path;
	}
	if (need > p->updir_need)
		p->updir_need = need;
	return 0;
}

int parser_check_links(struct parser *p)
{
	if (!p->updir_line || !p->move_line ||
	    p->move_depth >= (int)p->updir_need)
		return 0;
	p->line = p->move_line;
	return parser_error(
		p, p->move_col,
		"'%s' puts a name %d level%s below the client directory, where a link whose target climbs %u (line %u, '%s') would lead out: with '..' in a symlink target, every rename and link must put its name at least %u level%s down",
		p->move_path, p->move_depth + 1, p->move_depth ? "s" : "",
		p->updir_need, p->updir_line, p->updir_target,
		p->updir_need + 1, p->updir_need ? "s" : "");
}
