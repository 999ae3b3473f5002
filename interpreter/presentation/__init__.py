"""What a player sees: the table as text, boards drawn as text and SVG, phrases and labels."""
