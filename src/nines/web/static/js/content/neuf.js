// Le Neuf's page: how to play and where the game comes from, in English and French.

export default {
  en: {
    title: "Neuf",
    how: {
      heading: ["Four tricks", "is even."],
      intro: "The usual table is three players against each other, with a fourth hand dealt face down that nobody owns. Everyone starts at nine points and races down to zero.",
      items: [
        ["The deal", "A full 52-card pack, ace high. Thirteen cards go to each player and thirteen to the spare hand in the middle. The player on the dealer's right cuts; the deal, the exchange and the play all travel clockwise."],
        ["A trump for every deal", "Nobody chooses trumps: they follow a fixed cycle. Hearts, then diamonds, clubs and spades, then a deal without trumps, and round again. The score sheet keeps track of where the cycle stands."],
        ["Swap the whole hand, or keep it", "Before the first lead, each player in turn, starting on the dealer's left, may give up all thirteen cards for the hand lying in the centre. Whoever swaps leaves their old hand there, face down, for the next player to weigh. The hand left at the end is put aside unseen until the deal is scored."],
        ["Thirteen tricks", "The player on the dealer's left leads. Follow suit when you can; otherwise play anything. The highest trump takes the trick, or the highest card of the suit led when no trump falls. Whoever takes a trick leads the next."],
        ["The quota", "Four tricks is par. Each trick beyond four takes a point off your score; each trick short of four adds one. Thirteen tricks against a combined quota of twelve means the three scores together drop by exactly one every deal."],
        ["Reaching zero", "The match ends on the deal in which someone gets to zero or below. The lowest score wins, and players tied on the lowest score win together. From twenty-seven points, it never takes more than twenty-five deals."],
      ],
    },
    history: {
      heading: ["Nine points", "to lose."],
      items: [
        ["A Canadian kitchen-table game", "In Quebec the game goes by Le Neuf, or Chômeur, the “unemployed” hand that sits in the middle doing nothing until someone hires it. English speakers in Newfoundland and Eastern Ontario call it Nines, and Acadian families in Nova Scotia play it too."],
        ["The gamble in the middle", "The exchange is the heart of the game: keep thirteen cards you know, or take thirteen you have never seen, which may already have been turned down by the player before you."],
        ["Newfoundland partners", "With four at the table, partners sit opposite, every card is dealt, and there is no spare hand. Each team starts at nine with a quota of six tricks, so a match lasts at most seventeen deals. Another four-handed form has each player alone with a quota of three."],
        ["Local habits", "Tables disagree on the order of the trumps (spades first, or hearts, clubs, diamonds, spades) and on whether the dealer is offered the exchange first. A house rule lets a player win on the spot when a trick takes them to zero. Every one of these can be chosen when you open a table."],
      ],
    },
  },
  fr: {
    title: "Neuf",
    how: {
      heading: ["Quatre levées,", "c'est l'équilibre."],
      intro: "La table habituelle réunit trois joueurs, chacun pour soi, avec une quatrième main distribuée face cachée qui n'appartient à personne. Tout le monde part de neuf points et descend vers zéro.",
      items: [
        ["La donne", "Un jeu complet de 52 cartes, l'as en haut. Treize cartes à chaque joueur et treize à la main de réserve, au centre. Le joueur à droite du donneur coupe ; la distribution, l'échange et le jeu tournent dans le sens des aiguilles d'une montre."],
        ["Un atout par donne", "Personne ne choisit l'atout : il suit un cycle fixe. Cœur, puis carreau, trèfle et pique, puis une donne sans atout, et on recommence. La feuille de marque indique où en est le cycle."],
        ["Échanger toute sa main, ou la garder", "Avant la première entame, chacun à son tour, en commençant à gauche du donneur, peut céder ses treize cartes contre la main posée au centre. Celui qui échange y laisse son ancienne main, face cachée, que le joueur suivant pourra prendre. La main restée au centre est mise de côté sans être vue jusqu'au décompte."],
        ["Treize levées", "Le joueur à gauche du donneur entame. Il faut fournir la couleur demandée si on le peut ; sinon on joue n'importe quelle carte. Le plus fort atout remporte la levée, ou la plus forte carte de la couleur demandée si personne n'a coupé. Qui remporte une levée entame la suivante."],
        ["Le quota", "Quatre levées, c'est le pair. Chaque levée au-delà de quatre retire un point à votre pointage ; chaque levée manquante en ajoute un. Treize levées pour un quota total de douze : les trois pointages réunis baissent d'exactement un point à chaque donne."],
        ["Atteindre zéro", "La partie s'arrête à la donne où quelqu'un arrive à zéro ou moins. Le plus bas pointage gagne, et les joueurs à égalité au plus bas gagnent ensemble. En partant de vingt-sept points, il ne faut jamais plus de vingt-cinq donnes."],
      ],
    },
    history: {
      heading: ["Neuf points", "à perdre."],
      items: [
        ["Un jeu de cuisine canadien", "Au Québec, on l'appelle le Neuf, ou le Chômeur, d'après la main qui reste au centre sans rien faire jusqu'à ce qu'on l'embauche. En anglais, à Terre-Neuve et dans l'Est de l'Ontario, on dit Nines ; les familles acadiennes de la Nouvelle-Écosse y jouent aussi."],
        ["Le pari du centre", "L'échange est le cœur du jeu : garder treize cartes connues, ou en prendre treize jamais vues, que le joueur précédent a peut-être déjà refusées."],
        ["Les équipes de Terre-Neuve", "À quatre, les partenaires se font face, toutes les cartes sont distribuées et il n'y a pas de main de réserve. Chaque équipe part de neuf avec un quota de six levées, si bien qu'une partie dure au plus dix-sept donnes. Une autre forme à quatre fait jouer chacun pour soi avec un quota de trois."],
        ["Les habitudes locales", "Les tables ne s'entendent pas sur l'ordre des atouts (pique d'abord, ou cœur, trèfle, carreau, pique) ni sur qui échange le premier. Une règle maison fait gagner sur-le-champ le joueur qu'une levée amène à zéro. Chacun de ces choix se règle à l'ouverture de la table."],
      ],
    },
  },
};
