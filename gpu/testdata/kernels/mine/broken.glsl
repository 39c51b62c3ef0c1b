// A header with a mistake on line 4.
void broken() {
    uint x = 1u;
    x = not_declared_anywhere;
}
