/* rich_embed.c — the built-in rich policy weights: players/rich.weights as a NUL-terminated string
 * in the binary (the assembler's .incbin; the Makefile rebuilds this file when the weights
 * change). The text is parsed and checked by rich.c like any weights file. */
__asm__(".section .rodata\n"
        ".global rich_weights_text\n"
        ".type rich_weights_text, @object\n"
        "rich_weights_text:\n"
        ".incbin \"players/rich.weights\"\n"
        ".byte 0\n"
        ".size rich_weights_text, . - rich_weights_text\n"
        ".previous\n");
