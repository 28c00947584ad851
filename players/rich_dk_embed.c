/* rich_dk_embed.c — the `policy` player's rich weights against four sample clients:
 * players/rich_dk.weights (rich_rl.weights improved by REINFORCE against them alone, with a hidden layer;
 * tools/train_rich_dk.sh) as a NUL-terminated string in the binary (the assembler's .incbin;
 * the Makefile rebuilds this file when the weights change). The text is parsed and checked by
 * rich.c like any weights file. */
__asm__(".section .rodata\n"
        ".global rich_dk_weights_text\n"
        ".type rich_dk_weights_text, @object\n"
        "rich_dk_weights_text:\n"
        ".incbin \"players/rich_dk.weights\"\n"
        ".byte 0\n"
        ".size rich_dk_weights_text, . - rich_dk_weights_text\n"
        ".previous\n");
