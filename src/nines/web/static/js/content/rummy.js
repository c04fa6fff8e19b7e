// Nines rummy: how to play and where the game comes from, in English and French.

export default {
  en: {
    title: "Rummy",
    how: {
      heading: ["The next rank", "is wild."],
      intro: "Two to eight players, nine cards each. One deck with its two jokers for up to four players, two decks shuffled together for five or more.",
      items: [
        ["The indicator", "After the deal, one card is turned face up and left beside the stock for the whole hand. The rank after it is wild: a nine makes every ten wild, a king makes the aces wild, an ace the twos. A joker turned up is shuffled back and another card turned. Printed jokers are always wild."],
        ["A turn", "Draw one card, from the stock or the top of the discard pile. Then lay new sets, add to sets already down, or swap wilds, as much as you like. End by discarding one card. Everybody's first turn is simply draw and discard."],
        ["Runs and monkeys", "A run is three or more cards in sequence in one suit; the ace can sit below the two or above the king, but not both. Only one run per suit may exist on the whole table, so later cards of that suit extend it. A monkey is three or four cards of one rank in different suits; monkeys exist only with two decks, once all four runs are down."],
        ["Opening", "Your first set must hold at least four cards, and it may be all wilds. After that, three-card sets are fine, and you may add to any player's run or complete any monkey."],
        ["Swapping a wild", "Once you have opened, you may put the exact natural card a wild stands for in its place and take the wild. It stays in your hand until your next turn starts."],
        ["Going out", "Every turn ends with a discard, so you must always keep a card to throw. The hand ends when someone discards their last card; they score nothing, and everyone else counts what is left: pips for small cards, ten for court cards, fifteen for an ace, twenty-five for a wild, and a flat hundred for a player who never opened. Lowest total wins."],
      ],
    },
    history: {
      heading: ["Keep the cards", "on the table."],
      items: [
        ["A rummy of its own", "No published source describes this exact game. It belongs to the family of Okey and 101, where an indicator tile names the wild rank, and of Kalooki and Remik, where the first meld must reach a minimum."],
        ["One run per suit", "The rule that each suit holds a single run on the table turns every hand into a shared construction: the seven you hold may be the card that lets your neighbour go out."],
        ["How hands are scored", "The rules this game comes from say who wins a hand but not what the others pay. This table uses the common conventions (ace fifteen, court cards ten, wilds twenty-five, a never-opened hand a hundred) and lets you change every figure, or switch to Indian rummy's count."],
        ["Sessions", "There is no fixed length: by default each player starts one hand, and the lowest total at the end wins. You can set any number of hands, or play a single one."],
      ],
    },
  },
  fr: {
    title: "Rami",
    how: {
      heading: ["La valeur suivante", "est joker."],
      intro: "De deux à huit joueurs, neuf cartes chacun. Un jeu avec ses deux jokers jusqu'à quatre joueurs, deux jeux mêlés à partir de cinq.",
      items: [
        ["La carte témoin", "Après la donne, on retourne une carte qu'on laisse à côté du talon pendant toute la main. La valeur suivante est joker : un neuf rend tous les dix jokers, un roi les as, un as les deux. Si c'est un joker qui sort, on le remet dans le talon et on en retourne une autre. Les jokers imprimés sont toujours jokers."],
        ["Un tour", "Piochez une carte, au talon ou sur la défausse. Posez ensuite de nouvelles combinaisons, complétez celles qui sont sur la table ou échangez des jokers, autant que vous voulez. Terminez par une défausse. Le premier tour de chacun se limite à piocher et défausser."],
        ["Suites et singes", "Une suite compte au moins trois cartes consécutives de la même couleur ; l'as se place sous le deux ou au-dessus du roi, pas les deux à la fois. Une seule suite par couleur peut exister sur toute la table : les cartes suivantes de cette couleur la prolongent. Un singe réunit trois ou quatre cartes de même valeur de couleurs différentes ; il n'existe qu'à deux jeux, une fois les quatre suites posées."],
        ["L'ouverture", "Votre première combinaison doit compter au moins quatre cartes, et elle peut n'être faite que de jokers. Ensuite, trois cartes suffisent, et vous pouvez prolonger la suite de n'importe qui ou compléter n'importe quel singe."],
        ["Échanger un joker", "Une fois ouvert, vous pouvez mettre à la place d'un joker la carte exacte qu'il remplace, et prendre le joker. Il reste dans votre main jusqu'au début de votre prochain tour."],
        ["Sortir", "Chaque tour se termine par une défausse : il faut toujours garder une carte à jeter. La main finit quand quelqu'un défausse sa dernière carte ; il marque zéro, et les autres comptent ce qui leur reste : la valeur des petites cartes, dix par figure, quinze par as, vingt-cinq par joker, et cent d'un bloc pour qui n'a jamais ouvert. Le plus petit total gagne."],
      ],
    },
    history: {
      heading: ["Gardez les cartes", "sur la table."],
      items: [
        ["Un rami à part", "Aucune source publiée ne décrit exactement ce jeu. Il appartient à la famille de l'Okey et du 101, où une tuile témoin désigne la valeur joker, et à celle du Kalooki et du Remik, où la première pose doit atteindre un minimum."],
        ["Une suite par couleur", "Comme chaque couleur ne compte qu'une suite sur la table, chaque main devient une construction commune : le sept que vous gardez est peut-être la carte qui permettra à votre voisin de sortir."],
        ["Le décompte", "Les règles d'origine disent qui gagne une main mais pas ce que paient les autres. Cette table suit les usages courants (as quinze, figures dix, jokers vingt-cinq, cent pour une main jamais ouverte) et vous laisse changer chaque valeur, ou adopter le compte du rami indien."],
        ["Les séances", "Il n'y a pas de durée fixe : par défaut chaque joueur commence une main, et le plus petit total à la fin l'emporte. On peut choisir n'importe quel nombre de mains, ou n'en jouer qu'une."],
      ],
    },
  },
};
