/* rich_rl_embed.c — the `policy` player's built-in rich weights: players/rich_rl.weights (the
 * rich policy improved by REINFORCE, tools/train_rich_rl.sh) as a NUL-terminated string in the
 * binary (the assembler's .incbin; the Makefile rebuilds this file when the weights change).
 * The text is parsed and checked by rich.c like any weights file. */
__asm__(".section .rodata\n"
        ".global rich_rl_weights_text\n"
        ".type rich_rl_weights_text, @object\n"
        "rich_rl_weights_text:\n"
        ".incbin \"players/rich_rl.weights\"\n"
        ".byte 0\n"
        ".size rich_rl_weights_text, . - rich_rl_weights_text\n"
        ".previous\n");
